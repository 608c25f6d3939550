public enum PushDesk { public static let version = "0.1.0" }
