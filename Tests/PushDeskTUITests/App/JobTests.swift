import CStopSignal
import Foundation
import PushDeskCore
import XCTest

@testable import PushDeskTUI

/// The one way work runs off the input loop: a job reports progress into the app's queue,
/// Esc cancels it through its one cancellation path, its result becomes an effect; a view's
/// job stops when the view leaves; and a post wakes the run loop's sleep.
final class JobTests: DemoStoreConsoleTestCase {
    /// Waits (at most 10 s) until `done` holds, taking job events as the run loop does.
    private func settle(_ a: ConsoleApp, until done: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(10)
        while !done(), Date() < deadline {
            a.takeJobEvents()
            usleep(1_000)
        }
        XCTAssertTrue(done(), "not reached within 10 s", file: file, line: line)
    }

    func testAForegroundJobReportsProgressIsCancelledByEscAndItsResultBecomesAnEffect() throws {
        let a = app()
        a.resize(width: 80, height: 24)
        let gate = DispatchSemaphore(value: 0)
        let job = Job.make(
            .foreground, progress: "Starting…",
            work: { (job: JobContext<Never>) -> String in
                job.report("Step 1 of 2…")
                gate.wait()
                // The work sees the cancel and stops early, saying how far it got.
                return job.isCancelled ? "stopped after step 1" : "done"
            },
            onResult: { what, _ in .say("The job \(what).") })
        a.apply(.run(job))
        XCTAssertTrue(a.foregroundJob === job)
        settle(a) { a.message == "Step 1 of 2… (Esc stops)" }
        assertScreen(a, "progressOnTheStatusLine", width: 80, height: 24)
        // Keys wait while it runs; Esc cancels.
        a.press(.findings)
        XCTAssertFalse(a.top is FindingsScreen, "a key acted while the job ran")
        a.handle(.escape)
        XCTAssertTrue(job.isCancelled)
        XCTAssertTrue(job.cancellation.isCancelled, "the transport waits were not ended")
        XCTAssertTrue(job.gitStop.isStopped, "the git child was not stopped")
        XCTAssertEqual(a.message, "Step 1 of 2… (stopping…)")
        gate.signal()
        // A foreground job's result arrives even after a cancel: it says how the job stopped.
        settle(a) { a.foregroundJob == nil }
        XCTAssertEqual(job.result as? String, "stopped after step 1")
        XCTAssertEqual(a.message, "The job stopped after step 1.")
        XCTAssertEqual(a.jobs.runningJobs, 0)
        a.press(.findings)
        XCTAssertTrue(a.top is FindingsScreen, "keys still wait after the job ended")
    }

    /// A view's job stops when the view leaves the stack; what it posts later never arrives.
    func testAViewsJobIsCancelledWhenTheViewLeavesAndItsLaterEventsAreDropped() throws {
        let a = app()
        a.resize(width: 80, height: 24)
        a.press(.findings)
        let view = try XCTUnwrap(a.top as? FindingsScreen)
        let gate = DispatchSemaphore(value: 0)
        var received: [Int] = []
        var results = 0
        let job = Job.make(
            .view, owner: view,
            work: { (job: JobContext<Int>) -> Int in
                job.post(1)
                gate.wait()
                job.post(2)
                return 3
            },
            onEvent: { n, _ in
                received.append(n)
                return .none
            },
            onResult: { _, _ in
                results += 1
                return .none
            })
        a.apply(.run(job))
        settle(a) { received == [1] }
        a.press(.back)
        XCTAssertFalse(a.top is FindingsScreen)
        XCTAssertTrue(job.isCancelled, "leaving the view did not cancel its job")
        gate.signal()
        let deadline = Date().addingTimeInterval(10)
        while a.jobs.runningJobs > 0, Date() < deadline { usleep(1_000) }
        XCTAssertEqual(a.jobs.runningJobs, 0)
        XCTAssertFalse(a.takeJobEvents(), "a cancelled view job's events arrived")
        XCTAssertEqual(received, [1])
        XCTAssertEqual(results, 0)
    }

    /// What a job posts and returns travels typed: two jobs posting different types at once
    /// each get every value of theirs, in order and once, and their own result — nothing is
    /// cast on the way, so nothing can be dropped by a cast that fails.
    func testTwoJobsValuesAndResultsArriveTypedInOrderAndNoneIsDropped() throws {
        let a = app()
        var words: [String] = []
        var numbers: [Int] = []
        var ends: [String] = []
        let gate = DispatchSemaphore(value: 0)
        let wordsJob = Job.make(
            .background,
            work: { (job: JobContext<String>) -> Int in
                for w in ["one", "two", "three"] { job.post(w) }
                gate.wait()
                job.post("four")
                return 4
            },
            onEvent: { w, _ in
                words.append(w)
                return .none
            },
            onResult: { n, _ in
                ends.append("words:\(n)")
                return .none
            })
        let numbersJob = Job.make(
            .background,
            work: { (job: JobContext<Int>) -> [Int] in
                for n in 1...50 { job.post(n) }
                gate.signal()
                return [50]
            },
            onEvent: { n, _ in
                numbers.append(n)
                return .none
            },
            onResult: { r, _ in
                ends.append("numbers:\(r)")
                return .none
            })
        a.apply(.run(wordsJob))
        a.apply(.run(numbersJob))
        settle(a) { ends.count == 2 }
        XCTAssertEqual(words, ["one", "two", "three", "four"])
        XCTAssertEqual(numbers, Array(1...50))
        XCTAssertEqual(Set(ends), ["words:4", "numbers:[50]"])
        XCTAssertEqual(wordsJob.result as? Int, 4)
        XCTAssertFalse(a.takeJobEvents(), "events were left over")
    }

    /// The run loop sleeps in pd_wait: a job's post wakes it at once, and with nothing to
    /// do it sleeps the whole time.
    func testAPostWakesTheRunLoopsSleep() throws {
        XCTAssertEqual(pd_wake_open(), 0)
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)  // an input that never has a key
        defer {
            close(fds[0])
            close(fds[1])
        }
        _ = pd_wait(fds[0], 0)  // empties the pipe of earlier wake-ups
        XCTAssertEqual(pd_wait(fds[0], 50), 0, "woke with nothing to do")
        let a = app()
        let job = Job.make(.background, work: { (_: JobContext<Never>) in 42 }, onResult: { _, _ in .say("in") })
        let asleep = Date()
        a.apply(.run(job))
        XCTAssertEqual(pd_wait(fds[0], 10_000) & 2, 2, "the job's result did not wake the loop")
        XCTAssertLessThan(Date().timeIntervalSince(asleep), 5)
        XCTAssertTrue(a.takeJobEvents())
        XCTAssertEqual(a.message, "in")
    }
}
