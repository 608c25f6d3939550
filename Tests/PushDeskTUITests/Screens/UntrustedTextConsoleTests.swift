import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// Text from files reaches the console's cell buffer through the one escape rule, and a
/// new subscription parameter's field is typed whole.
final class UntrustedTextConsoleTests: DemoStoreConsoleTestCase {
    /// The app editor's Credentials area: a certificate path holding a right-to-left
    /// override and a zero-width joiner is drawn escaped, never raw.
    func testCredentialsAreaShowsBidiAndJoinerEscaped() throws {
        var s = try store.load(Service.self, "neotrips")
        guard case .ios(var prod) = s.apps[1] else { return XCTFail("the demo's second app is iOS") }
        prod.auth = .certificate(certificateFile: "credentials/evil\u{202E}21p.\u{200D}x.p12", passwordRef: "p")
        s.apps[1] = .ios(prod)
        try store.save(s)
        let a = app()
        a.handle(.enter)
        a.focus(field: "apps")
        a.handle(.down)
        a.handle(.enter)  // the production app
        a.show(tab: "credentials")
        let b = a.render(width: 100, height: 30)
        XCTAssertNotNil(b.row(containing: "credentials/evil"), b.text)
        assertScreen(b, "escapedCredentialPath")  // credentials/evil\u{202E}21p.\u{200D}x.p12, escaped
        XCTAssertFalse(b.text.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{200D}" }, b.text)
    }

    /// Typing `@loyaltyId` into a new parameter's field gives `@loyaltyId` (it started as
    /// `@`, so the same keys gave `@@loyaltyId`).
    func testANewParameterFieldIsTypedWhole() throws {
        let a = app()
        a.handle(.enter)
        a.focus(field: "apps")
        a.handle(.enter)  // the sandbox app
        a.show(tab: "params")
        a.handle(.char("n"))
        type(a, "loyaltyId")
        a.focus(field: "label")
        type(a, "Loyalty")
        a.focus(field: "field")
        type(a, "@loyaltyId")
        a.handle(.escape)
        a.handle(.ctrl("s"))
        guard case .ios(let sandbox) = try store.load(Service.self, "neotrips").apps[0] else { return XCTFail() }
        XCTAssertEqual(
            sandbox.subscriptionParams.last, SubscriptionParam(name: "loyaltyId", label: "Loyalty", field: "@loyaltyId")
        )
    }
}
