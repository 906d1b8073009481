import Foundation
import SurveyModel
import SurveyStorage
import XCTest

/// A database opened on a thread of its own while a window is built: what the
/// store it hands over can do, and what the opening found, are those of a
/// store opened in place.
final class ResponseStoreOpeningTests: XCTestCase {
    private func response(_ name: String) -> SurveyResponse {
        SurveyResponse(answers: SurveyAnswers(name: name), submittedAt: Date(timeIntervalSince1970: 1))
    }

    func testTheStoreItHandsOver_readsWhatWasStored_andStores() throws {
        let folder = try TemporaryDirectory()
        try ResponseStore(directory: folder.url).insert(response("before"))

        let store = try ResponseStore.Opening(directory: folder.url).store()
        try store.insert(response("after"))

        XCTAssertEqual(try store.newestFirst().map(\.answers.name), ["after", "before"])
        XCTAssertFalse(store.isReadOnly)
        XCTAssertNil(store.setAside)
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
        do {
            let store = try ResponseStore(directory: folder.url)
            try store.insert(response("stored by the newer version"))
            try store._recordMigration("v99: from a newer version")
        }

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
}
