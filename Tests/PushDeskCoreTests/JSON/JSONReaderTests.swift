import Foundation
import PushDeskTestSupport
import XCTest

@testable import PushDeskCore

final class JSONReaderTests: XCTestCase {
    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> JSONReadError? {
        do {
            let v = try JSONReader.object(text)
            XCTFail("read \(v.compact) from \(text)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func assertError(
        _ text: String, at position: (Int, Int), _ words: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let e = error(text, file: file, line: line) else { return }
        XCTAssertEqual(e.line, position.0, "line of \(e)", file: file, line: line)
        XCTAssertEqual(e.column, position.1, "column of \(e)", file: file, line: line)
        XCTAssertTrue(e.message.contains(words), "\(e)", file: file, line: line)
    }

    func testKeepsKeyOrderAndNumberSpellingAndWritesCompactly() throws {
        let text = """
            { "zeta" : 1.50, "alpha":[1E+2, -0, 0.000e-3 ,true,null] ,
              "url":"https:\\/\\/a.example\\/x", "u":"\\u00e9\\ud83c\\udf89 東京", "big": 12345678901234567890123 }
            """
        let v = try JSONReader.object(text)
        XCTAssertEqual(
            v.compact,
            #"{"zeta":1.50,"alpha":[1E+2,-0,0.000e-3,true,null],"url":"https://a.example/x","u":"é🎉 東京","big":12345678901234567890123}"#
        )
        // What is written reads back to the same value: the form is stable.
        XCTAssertEqual(try JSONReader.object(v.compact), v)
    }

    func testNotAnObject() {
        assertError("[1,2]", at: (1, 1), "a JSON object `{…}` is needed")
        assertError("  \n \"gate\"", at: (2, 2), "a JSON object `{…}` is needed")
        assertError("", at: (1, 1), "empty")
        assertError("{\"a\":1", at: (1, 7), "close it with `}`")
    }

    func testTrailingGarbage() {
        assertError("{\"a\":1} x", at: (1, 9), "after the end of the JSON value")
        assertError("{\"a\":1}{}", at: (1, 8), "after the end")
    }

    func testDuplicateKeysPointAtTheSecond() {
        assertError("{\"gate\":\"B12\",\n \"gate\":\"C3\"}", at: (2, 2), "\"gate\" is given twice")
        // Equal after escapes are resolved: the app sees one key.
        assertError(#"{"a":1,"\u0061":2}"#, at: (1, 8), "given twice")
        // The same key in two objects is fine.
        XCTAssertNoThrow(try JSONReader.object(#"{"a":{"a":1},"b":{"a":2}}"#))
    }

    func testDepthLimit() {
        let deep =
            String(repeating: "{\"a\":", count: JSONReader.maxDepth + 1) + "1"
            + String(repeating: "}", count: JSONReader.maxDepth + 1)
        assertError(deep, at: (1, 5 * JSONReader.maxDepth + 1), "nested more than \(JSONReader.maxDepth)")
        let ok =
            String(repeating: "{\"a\":", count: JSONReader.maxDepth) + "1"
            + String(repeating: "}", count: JSONReader.maxDepth)
        XCTAssertNoThrow(try JSONReader.object(ok))
        // A million brackets: refused by size, before any recursion.
        let hostile = "{\"a\":" + String(repeating: "[", count: 1_000_000)
        XCTAssertTrue(error(hostile)?.message.contains("at most \(JSONReader.maxBytes)") == true)
    }

    func testSizeLimitOfAOneMegabyteContentState() {
        let big = "{\"s\":\"" + String(repeating: "x", count: 1 << 20) + "\"}"
        assertError(big, at: (1, JSONReader.maxBytes + 1), "is \(big.utf8.count) bytes")
    }

    func testInvalidUTF8() {
        var bytes = Array("{\"a\":\"b".utf8)
        bytes += [0xC3, 0x28]  // a lead byte and no continuation
        bytes += Array("\"}".utf8)
        XCTAssertThrowsError(try JSONReader.object(bytes)) { e in
            let e = e as! JSONReadError
            XCTAssertEqual([e.line, e.column], [1, 8])
            XCTAssertTrue(e.message.contains("invalid UTF-8"), "\(e)")
        }
        for bad: [UInt8] in [[0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            XCTAssertThrowsError(try JSONReader.object(Array("{\"a\":\"".utf8) + bad + Array("\"}".utf8)), "\(bad)")
        }
        XCTAssertNoThrow(try JSONReader.object(Array("{\"a\":\"é€🎉\"}".utf8)))
    }

    func testLoneSurrogates() {
        assertError(#"{"a":"x\ud83c"}"#, at: (1, 8), "first half of a surrogate pair")
        assertError(#"{"a":"x\ud83c\u0041"}"#, at: (1, 14), "does not complete the surrogate pair")
        assertError(#"{"a":"\udf89"}"#, at: (1, 7), "second half")
        assertError(#"{"\udf89":1}"#, at: (1, 3), "second half")
    }

    func testNumbers() {
        assertError(#"{"eta":1e999}"#, at: (1, 8), "1e999 is out of range")
        assertError(#"{"eta":-1e400}"#, at: (1, 8), "out of range")
        assertError(#"{"eta":01}"#, at: (1, 8), "leading 0")
        assertError(#"{"eta":1.}"#, at: (1, 10), "after `.`")
        assertError(#"{"eta":1e}"#, at: (1, 10), "exponent")
        assertError(#"{"eta":+1}"#, at: (1, 8), "expected a value")
        assertError(#"{"eta":NaN}"#, at: (1, 8), "expected a value")
        assertError(#"{"eta":.5}"#, at: (1, 8), "expected a value")
        XCTAssertEqual(
            try JSONReader.object(#"{"eta":1e308,"t":1764612000}"#).compact, #"{"eta":1e308,"t":1764612000}"#)
    }

    func testStringsRefuseRawControlsAndUnknownEscapes() {
        assertError("{\"a\":\"x\ty\"}", at: (1, 8), "control character")
        assertError(#"{"a":"\x"}"#, at: (1, 7), "unknown escape")
        assertError(#"{"a":"\u12G4"}"#, at: (1, 7), "four hex digits")
        assertError(#"{"a":"open}"#, at: (1, 6), "never closed")
        assertError("{a:1}", at: (1, 2), "key in double quotes")
    }

    func testColumnsCountCharactersNotBytes() {
        assertError("{\"東京\":1,}", at: (1, 9), "key in double quotes")
    }

    /// Seeded mutations of valid texts: every one is read, or refused with a position inside
    /// the text; never a crash or a hang. What is read writes back to a text that reads the same.
    func testSeededMutationsNeverCrashAndAlwaysPosition() throws {
        var rng = SeededGenerator.fromEnvironment()
        let seeds = [
            #"{"gate":"B12","status":"boarding","eta":1764612000,"list":[1,2.5,{"x":null}],"ok":true}"#,
            #"{"u":"\u00e9\ud83c\udf89","n":-0.1e-3,"s":"a\"b\\c"}"#,
            "{\"flight\":\"NT 401\",\n \"from\":\"LIS\",\"to\":\"HND\",\"nested\":{\"a\":[[],{}]}}",
        ]
        let alphabet = Array("{}[]\":,\\u0123456789abcdefe+-.tnlrsx \n\u{7F}".utf8) + [0xC3, 0xA9, 0xED, 0xFF, 0x00]
        for round in 0..<4000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0...Int.random(in: 0...4, using: &rng) {
                let k = Int.random(in: 0..<max(1, bytes.count), using: &rng)
                switch Int.random(in: 0...2, using: &rng) {
                case 0 where !bytes.isEmpty: bytes.remove(at: k)
                case 1: bytes.insert(alphabet.randomElement(using: &rng)!, at: min(k, bytes.count))
                default: if !bytes.isEmpty { bytes[k] = alphabet.randomElement(using: &rng)! }
                }
            }
            do {
                let v = try JSONReader.object(bytes)
                XCTAssertEqual(try JSONReader.object(v.compact), v, "seed \(rng.seed) round \(round)")
            } catch {
                let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
                XCTAssertTrue(
                    error.line >= 1 && error.line <= lines.count && error.column >= 1
                        && error.column <= lines[error.line - 1].count + 1,
                    "seed \(rng.seed) round \(round): \(error) for \(bytes)")
                XCTAssertFalse(error.message.isEmpty)
            }
        }
    }
}
