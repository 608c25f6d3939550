import PushDeskCore
print("pushdesk \(PushDesk.version)")
