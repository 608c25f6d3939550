/// Two versions of one service of clearly different sizes, used by the crash-safety
/// suite and its helper executable to tell "old" from "new" after a kill.
public enum StressVersions {
    public static let small: Service = {
        var s = DemoStore.neotrips
        s.apps = [s.apps[2]]
        s.label = "Small version"
        return s
    }()

    public static let large: Service = {
        var s = DemoStore.neotrips
        s.label = "Large version"
        for i in 0..<60 {
            s.apps[0].variables.append(AppVariable(name: "extra\(i)", label: "Extra variable number \(i)"))
        }
        return s
    }()
}
