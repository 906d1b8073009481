import XCTest
import TwoWayBinding

/// `Binding(get:set:)`: a control bound to a field of a plain struct held
/// elsewhere, with the guarantees of a binding to an `Observable`.
final class GetSetBindingTests: XCTestCase {
    private struct Settings {
        var name = "Ada"
        var years = 12.0
    }

    @MainActor private final class Holder {
        var settings = Settings()
        var sets = 0
        lazy var name = Binding(get: { self.settings.name }, set: { self.settings.name = $0; self.sets += 1 })
        lazy var years = Binding(get: { self.settings.years }, set: { self.settings.years = $0; self.sets += 1 })
    }

    @MainActor func testBothWays_withNoEchoIntoTheSetter() async {
        let holder = Holder()
        let field = FakeTextField()
        let binding = field <-> holder.name
        XCTAssertEqual(field.text, "Ada", "the getter's value is shown")
        XCTAssertEqual(holder.sets, 0)

        field.type("Grace")
        XCTAssertEqual(holder.settings.name, "Grace")
        XCTAssertEqual(holder.sets, 1)
        XCTAssertEqual(binding._controlWriteCount, 1, "the typed text is not written back")

        holder.name.value = "Linus"
        XCTAssertEqual(field.text, "Linus")
        XCTAssertEqual(holder.settings.name, "Linus")
        XCTAssertEqual(holder.sets, 2, "the field's echo of the write does not call the setter again")
    }

    @MainActor func testAClampedValue_isReadBackIntoTheSetter() async {
        let holder = Holder()
        let spin = FakeSpinButton(range: 0...10, digits: 1)
        spin.bind(with: holder.years)
        XCTAssertEqual(spin.value, 10)
        XCTAssertEqual(holder.settings.years, 10, "the control's clamped value went through the setter")
    }

    @MainActor func testARefusedConversion_leavesTheSetterUncalled() async {
        let holder = Holder()
        let field = FakeTextField()
        let binding = field.bind(with: holder.years, transform: .text(invalidMessage: "Not a number"))
        XCTAssertEqual(field.text, "12.0")
        field.type("abc")
        XCTAssertEqual(holder.sets, 0)
        XCTAssertEqual(holder.settings.years, 12)
        XCTAssertEqual(binding.validation.value, .invalid("Not a number"))
        field.type("3")
        XCTAssertEqual(holder.settings.years, 3)
        XCTAssertTrue(binding.validation.value.isValid)
    }

    @MainActor func testRefresh_showsAChangeMadeBehindTheBinding_withoutCallingTheSetter() async {
        let holder = Holder()
        let field = FakeTextField()
        field <-> holder.name
        holder.settings.name = "Changed elsewhere"
        XCTAssertEqual(field.text, "Ada", "a getter cannot tell")
        holder.name.refresh()
        XCTAssertEqual(field.text, "Changed elsewhere")
        XCTAssertEqual(holder.sets, 0)
    }

    @MainActor func testTheControlsBinding_keepsTheGetterAndSetterAlive() async {
        var settings = Settings()
        let field = FakeTextField()
        weak var weakBinding: Binding<String>?
        do {
            let binding = Binding(get: { settings.name }, set: { settings.name = $0 })
            weakBinding = binding
            field.bind(with: binding)
        }
        XCTAssertNotNil(weakBinding, "kept by the control's binding")
        field.type("Kept")
        XCTAssertEqual(settings.name, "Kept")
        field.binder?.unbind()
        XCTAssertNil(weakBinding, "released with the control's binding")
    }
}
