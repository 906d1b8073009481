import XCTest
import TwoWayBinding

private struct Person: Equatable {
    var name: String
    var age: Int
}

final class KeyPathProjectionTests: XCTestCase {
    @MainActor func testProjection_readsTheField() async {
        let person = Observable(Person(name: "Ada", age: 36))
        XCTAssertEqual(person.projection(\.name).value, "Ada")
    }

    @MainActor func testSettingProjection_updatesParentOnce() async {
        let person = Observable(Person(name: "Ada", age: 36))
        let name = person.projection(\.name)
        let recorder = Recorder(person)
        name.value = "Grace"
        XCTAssertEqual(person.value, Person(name: "Grace", age: 36))
        XCTAssertEqual(recorder.count, 1)
    }

    @MainActor func testSettingParent_updatesOnlyChangedProjections() async {
        let person = Observable(Person(name: "Ada", age: 36))
        let name = Recorder(person.projection(\.name))
        let age = Recorder(person.projection(\.age))
        person.value.age = 37
        XCTAssertEqual(age.received, [37])
        XCTAssertEqual(name.count, 0)
    }

    @MainActor func testSameKeyPath_givesSameProjection() async {
        let person = Observable(Person(name: "Ada", age: 36))
        XCTAssertTrue(person.projection(\.name) === person.projection(\.name))
    }

    @MainActor func testProjection_bindsToAControl() async {
        let person = Observable(Person(name: "Ada", age: 36))
        let field = FakeTextField()
        field.bind(with: person.projection(\.name))
        XCTAssertEqual(field.text, "Ada")
        field.type("Grace")
        XCTAssertEqual(person.value.name, "Grace")
    }

    @MainActor func testProjection_doesNotKeepParentAlive() async {
        var person: Observable<Person>? = Observable(Person(name: "Ada", age: 36))
        weak let weakPerson = person
        let name = person!.projection(\.name)
        withExtendedLifetime(person) {}
        person = nil
        XCTAssertNil(weakPerson)
        name.value = "after"   // no crash
        XCTAssertEqual(name.value, "after")
    }

    @MainActor func testBindingsOfDifferentTypes_liveInOneCollection() async {
        let person = Observable(Person(name: "Ada", age: 36))
        let nameField = FakeTextField()
        let ageField = FakeSpinButton(range: 0...150, digits: 0)
        let age = Observable(36.0)
        let bindings: [AnyBinding] = [
            nameField.bind(with: person.projection(\.name)),
            ageField.bind(with: age),
        ]
        XCTAssertTrue(bindings.allSatisfy(\.isActive))
        bindings.forEach { $0.unbind() }
        XCTAssertFalse(bindings.contains(where: \.isActive))
        XCTAssertNil(nameField.binder)
        XCTAssertNil(ageField.binder)
    }

    @MainActor func testNodes_eraseValueTypes() async {
        let a = Observable(1), b = Observable("x")
        let nodes: [ObservableNode] = [a, b]
        var changes = 0
        let tokens = nodes.map { $0.observeChange { changes += 1 } }
        a.value = 2
        b.value = "y"
        XCTAssertEqual(changes, 2)
        withExtendedLifetime(tokens) {}
    }
}
