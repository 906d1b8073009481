import Foundation
import SurveyStorage
import XCTest

/// A database opened on a thread of its own while a window is built: what the
/// store it hands over can do, and what the opening found, are those of a
/// store opened in place.
final class ResponseStoreOpeningTests: XCTestCase {
    private func response(_ name: String) -> FormResponse {
        .survey(name: name)
    }

    func testTheStoreItHandsOver_readsWhatWasStored_andStores() throws {
        let folder = try TemporaryDirectory()
        try ResponseStore(directory: folder.url).insert(response("before"))

        let store = try ResponseStore.Opening(directory: folder.url).store()
        try store.insert(response("after"))

        XCTAssertEqual(try store.listing(ofForm: "survey_form").map(\.title), ["after", "before"])
        XCTAssertFalse(store.isReadOnly)
        XCTAssertNil(store.setAside)
    }

    func testWaitingForTheOpening_leavesTheStoreToBeTaken_byAnyNumberOfWaiters() throws {
        let folder = try TemporaryDirectory()
        try ResponseStore(directory: folder.url).insert(response("before"))
        let opening = ResponseStore.Opening(directory: folder.url)

        // Waiters on other threads, as a window's waits off its main thread.
        DispatchQueue.concurrentPerform(iterations: 3) { _ in opening.waitUntilFinished() }
        XCTAssertTrue(opening.isFinished)
        opening.waitUntilFinished()

        let store = try opening.store()
        XCTAssertEqual(try store.listing(ofForm: "survey_form").map(\.title), ["before"])
    }

    func testADamagedDatabase_isSetAside_andANewOneStarted() throws {
        let folder = try TemporaryDirectory()
        let database = folder.url.appendingPathComponent(ResponseStore.fileName)
        let damaged = Data(repeating: 0x5A, count: 4096)
        try damaged.write(to: database)

        let store = try ResponseStore.Opening(directory: folder.url).store()

        let setAside = try XCTUnwrap(store.setAside)
        XCTAssertEqual(try Data(contentsOf: setAside.movedTo), damaged, "the damaged file is kept as it was")
        XCTAssertEqual(try store.count(), 0)
        XCTAssertNoThrow(try store.insert(response("Ada")))
    }

    func testANewerVersionsDatabase_isHandedOverReadOnly() throws {
        let folder = try TemporaryDirectory()
        try folder.makeNewerVersionsDatabase(holding: [response("stored by the newer version")])

        let store = try ResponseStore.Opening(directory: folder.url).store()

        XCTAssertTrue(store.isReadOnly)
        XCTAssertThrowsError(try store.insert(response("refused"))) { error in
            XCTAssertEqual((error as? StorageError)?.code, .newerDatabase)
        }
    }

    func testAFolderThatCannotBeMade_isTheSameErrorAsOpeningInPlace() throws {
        let parent = try TemporaryDirectory()
        let file = parent.url.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: file)
        let folder = file.appendingPathComponent("data")

        var inPlace: String?
        XCTAssertThrowsError(try ResponseStore(directory: folder)) { inPlace = $0.localizedDescription }
        XCTAssertThrowsError(try ResponseStore.Opening(directory: folder).store()) { error in
            XCTAssertEqual(error.localizedDescription, inPlace)
            XCTAssertTrue(error.localizedDescription.contains(folder.path), error.localizedDescription)
        }
    }

    // MARK: - Openings at once

    /// At start the first window's opening and the sender's run together.
    private func openAtOnce(_ folder: URL, count: Int) -> [Result<ResponseStore, any Error>] {
        let openings = (0..<count).map { _ in ResponseStore.Opening(directory: folder) }
        return openings.map { opening in Result { try opening.store() } }
    }

    func testOpeningsAtOnce_ofANewDatabase_allSucceed_andMakeItOnce() throws {
        for _ in 0..<10 {
            let folder = try TemporaryDirectory()
            let stores = try openAtOnce(folder.url, count: 4).map { try $0.get() }
            try stores[0].insert(response("Ada"))
            for store in stores { XCTAssertEqual(try store.count(), 1) }
        }
    }

    func testOpeningsAtOnce_ofADamagedDatabase_setItAsideOnce_andShareTheNewOne() throws {
        for _ in 0..<10 {
            let folder = try TemporaryDirectory()
            let damaged = Data(repeating: 0x5A, count: 4096)
            try damaged.write(to: folder.url.appendingPathComponent(ResponseStore.fileName))

            let stores = try openAtOnce(folder.url, count: 4).map { try $0.get() }

            let setAside = stores.compactMap(\.setAside)
            XCTAssertEqual(setAside.count, 1, "one opening found the damage; the others found its new database")
            XCTAssertEqual(try Data(contentsOf: setAside[0].movedTo), damaged)
            let files = try folder.contents().filter { $0.hasPrefix(ResponseStore.fileName + ".corrupt-") }
            XCTAssertEqual(files.count, 1, "\(files)")
            try stores[3].insert(response("Ada"))
            for store in stores { XCTAssertEqual(try store.count(), 1) }
        }
    }
}
