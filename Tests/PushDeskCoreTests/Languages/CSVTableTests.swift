import XCTest

@testable import PushDeskCore

/// Translators' CSV files: RFC 4180 as spreadsheets write it, and the bad
/// files they also write, each refused with its rule id at LINE:COLUMN.
final class CSVTableTests: XCTestCase {
    func read(_ text: String) throws -> [[String]] {
        try CSVTable.read(Array(text.utf8)).map { $0.map(\.text) }
    }

    func failure(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> CSVTable.Failure? {
        do {
            _ = try CSVTable.read(bytes)
            XCTFail("read without an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testQuotingLineEndsAndABOM() throws {
        let text =
            "\u{FEFF}locale,title,body\r\nde,\"Hallo, Welt\",\"Sag \"\"Hi\"\"\"\r\nzh-Hant,夏天來了,\"two\nlines\"\nfr,,\r\n"
        XCTAssertEqual(
            try read(text),
            [
                ["locale", "title", "body"], ["de", "Hallo, Welt", "Sag \"Hi\""], ["zh-Hant", "夏天來了", "two\nlines"],
                ["fr", "", ""],
            ])
        let cells = try CSVTable.read(Array(text.utf8))
        XCTAssertEqual(cells[3][0].line, 5, "the quoted newline counts as a line")
        XCTAssertEqual(cells[2][2].column, 14)
        XCTAssertEqual(try read("a,b"), [["a", "b"]], "no line end after the last record")
        XCTAssertEqual(try read("a,\n"), [["a", ""]])
        XCTAssertEqual(try read("a,"), [["a", ""]], "a comma at the very end: one empty cell")
        XCTAssertEqual(try CSVTable.read(Array("é,".utf8))[0][1].column, 3)
    }

    func testBadFilesAreRefusedWithTheirRuleAndPosition() {
        let unclosed = failure(Array("locale,title\nde,\"Hallo\nfr,Salut\n".utf8))
        XCTAssertEqual(unclosed?.rule, "csv.row")
        XCTAssertEqual(unclosed.map { [$0.line, $0.column] }, [2, 4])

        let stray = failure(Array("locale,title\nde,Hal\"lo\n".utf8))
        XCTAssertEqual(stray?.rule, "csv.row")
        XCTAssertEqual(stray.map { [$0.line, $0.column] }, [2, 7])

        let after = failure(Array("locale,title\nde,\"Hallo\"x\n".utf8))
        XCTAssertEqual(after?.rule, "csv.row")
        XCTAssertEqual(after.map { [$0.line, $0.column] }, [2, 11])

        let latin1 = failure(Array("locale,title\nfr,".utf8) + [0xE9, 0x74, 0xE9] + Array("\n".utf8))
        XCTAssertEqual(latin1?.rule, "csv.encoding")
        XCTAssertEqual(latin1.map { [$0.line, $0.column] }, [2, 4])
        XCTAssertEqual(
            latin1?.description,
            "2:4: error: csv.encoding: the file is not UTF-8 here; save it from the spreadsheet as \"CSV UTF-8\"")

        let huge = failure([UInt8](repeating: UInt8(ascii: "a"), count: CSVTable.maxBytes + 1))
        XCTAssertEqual(huge?.rule, "csv.size")
    }

    func testWritingQuotesWhatNeedsItAndRoundTrips() throws {
        let records = [
            ["locale", "title", "body"], ["de", "Hallo, Welt", "Sag \"Hi\""], ["ja", "改行\r\nあり", "plain"],
        ]
        let text = CSVTable.write(records)
        XCTAssertEqual(
            text, "locale,title,body\r\nde,\"Hallo, Welt\",\"Sag \"\"Hi\"\"\"\r\nja,\"改行\r\nあり\",plain\r\n")
        XCTAssertEqual(try read(text), records)
    }

    func testFormulaLookingCellsAreDefusedOnExportAndRestoredOnImport() {
        for cell in ["=1+2", "+49 30", "-20%", "@SUM(A1)", "\tx", "\rx"] {
            let safe = CSVTable.spreadsheetSafe(cell)
            XCTAssertEqual(safe, "'" + cell)
            XCTAssertEqual(CSVTable.unescapeSpreadsheetSafe(safe), cell)
        }
        XCTAssertEqual(CSVTable.spreadsheetSafe("Hallo"), "Hallo")
        XCTAssertEqual(CSVTable.unescapeSpreadsheetSafe("'tis the season"), "'tis the season")
        XCTAssertEqual(CSVTable.unescapeSpreadsheetSafe("=1+2"), "=1+2", "a translator's own formula stays text")
        // A text that itself begins with ' and a formula character keeps its ' through the round trip.
        for text in ["'=x", "'-20%", "''=x"] {
            XCTAssertEqual(CSVTable.spreadsheetSafe(text), "'" + text)
            XCTAssertEqual(CSVTable.unescapeSpreadsheetSafe(CSVTable.spreadsheetSafe(text)), text)
        }
        XCTAssertEqual(CSVTable.spreadsheetSafe("'tis the season"), "'tis the season")
        XCTAssertEqual(CSVTable.spreadsheetSafe("''"), "''")
    }
}
