import XCTest
import TwoWayBinding

final class BindingTests: XCTestCase {
    // MARK: - Model → control

    @MainActor func testBind_syncsModelToControlByDefault() async {
        let model = Observable("Ada")
        let field = FakeTextField(text: "old")
        field.bind(with: model)
        XCTAssertEqual(field.text, "Ada")
        XCTAssertEqual(model.value, "Ada")
    }

    @MainActor func testBind_controlToModelOption() async {
        let model = Observable("model")
        let field = FakeTextField(text: "typed before binding")
        field.bind(with: model, options: BindingOptions(initialSync: .controlToModel))
        XCTAssertEqual(model.value, "typed before binding")
        XCTAssertEqual(field.text, "typed before binding")
    }

    @MainActor func testModelChange_reachesControl() async {
        let model = Observable("")
        let field = FakeTextField()
        field.bind(with: model)
        model.value = "Grace"
        XCTAssertEqual(field.text, "Grace")
    }

    @MainActor func testEqualValue_isNeverWrittenToControl() async {
        let model = Observable("same")
        let field = FakeTextField(text: "same")
        field.bind(with: model)
        XCTAssertEqual(field.programmaticSets, 0)
        model.value = "other"
        XCTAssertEqual(field.programmaticSets, 1)
    }

    @MainActor func testEchoesOfProgrammaticWrites_areIgnored() async {
        let model = Observable("start")
        let field = FakeTextField()
        field.bind(with: model)
        let recorder = Recorder(model)
        let emissionsBefore = field.emissions
        model.value = "next"
        XCTAssertEqual(field.emissions - emissionsBefore, 2, "the fake emitted \"\" and then the text")
        XCTAssertEqual(recorder.received, ["next"], "neither echo came back into the model")
        XCTAssertEqual(model.value, "next")
    }

    /// An observer that subscribed before the binding (the app's undo history
    /// does) hears the model first, and so would hear any echo of the write
    /// that the control emits while the binding updates it.
    @MainActor func testEchoesOfProgrammaticWrites_areIgnored_forObserversSubscribedBeforeTheBinding() async {
        let model = Observable("start")
        let recorder = Recorder(model)
        let field = FakeTextField()
        field.bind(with: model)
        model.value = "next"
        XCTAssertEqual(recorder.received, ["next"], "the control's \"\" and \"next\" echoes never reach the model")
        XCTAssertEqual(field.text, "next")
    }

    @MainActor func testOneUndo_undoesOneProgrammaticChangeOfABoundModel() async {
        let model = Observable("start")
        let history = EditHistory()
        let tracking = ObservationToken.Bag()
        defer { tracking.cancelAll() }
        history.track(model).store(in: tracking)
        let field = FakeTextField()
        field.bind(with: model)
        model.value = "next"
        XCTAssertEqual(history._undoCount, 1, "an echo would have recorded more steps")
        history.undo()
        XCTAssertEqual(model.value, "start")
        XCTAssertEqual(field.text, "start")
    }

    // MARK: - Control → model

    @MainActor func testUserChange_reachesModelWithOneNotification() async {
        let model = Observable("")
        let field = FakeTextField()
        field.bind(with: model)
        let recorder = Recorder(model)
        field.type("A")
        field.type("Ad")
        field.type("Ada")
        XCTAssertEqual(recorder.received, ["A", "Ad", "Ada"])
        XCTAssertEqual(field.programmaticSets, 0, "the user's text is never written back")
    }

    @MainActor func testUserChange_noFeedbackLoop() async {
        let model = Observable(0.0)
        let spin = FakeSpinButton(range: 0...10, digits: 1)
        spin.bind(with: model)
        let recorder = Recorder(model)
        spin.userSets(4.5)
        XCTAssertEqual(recorder.received, [4.5])
        XCTAssertEqual(spin.programmaticSets, 0)
        XCTAssertEqual(spin.emissions, 1)
    }

    // MARK: - Coerced values

    @MainActor func testClampedValue_isReadBackIntoModel() async {
        let model = Observable(80.0)
        let spin = FakeSpinButton(range: 0...50, digits: 0)
        let recorder = Recorder(model)
        spin.bind(with: model)
        XCTAssertEqual(spin.value, 50)
        XCTAssertEqual(model.value, 50, "no disagreement is left behind")
        XCTAssertEqual(recorder.received, [50], "the model takes the control's value once")
        XCTAssertEqual(spin.programmaticSets, 1, "no loop of writes")
    }

    @MainActor func testRoundedValue_isReadBackIntoModel() async {
        let model = Observable(0.0)
        let spin = FakeSpinButton(range: 0...10, digits: 1)
        spin.bind(with: model)
        model.value = 2.345
        XCTAssertEqual(spin.value, 2.3)
        XCTAssertEqual(model.value, 2.3)
    }

    @MainActor func testNarrowedRange_clampsAndModelFollows() async {
        let model = Observable(40.0)
        let spin = FakeSpinButton(range: 0...100, digits: 0)
        spin.bind(with: model)
        spin.narrow(to: 0...30)
        XCTAssertEqual(model.value, 30)
    }

    @MainActor func testModelCorrectedByAnotherObserver_controlShowsCorrection() async {
        let model = Observable("")
        let upper = model.observe { if $0 != $0.uppercased() { model.value = $0.uppercased() } }
        let field = FakeTextField()
        field.bind(with: model)
        field.type("ada")
        XCTAssertEqual(model.value, "ADA")
        XCTAssertEqual(field.text, "ADA")
        withExtendedLifetime(upper) {}
    }

    // MARK: - Transforms and validation

    @MainActor func testFailedParse_keepsModelAndSetsValidation() async {
        let model = Observable(12)
        let field = FakeTextField()
        let binding = field.bind(with: model, transform: .text(invalidMessage: "Enter a whole number."))
        XCTAssertEqual(field.text, "12")
        let recorder = Recorder(model)
        field.type("12x")
        XCTAssertEqual(model.value, 12)
        XCTAssertEqual(recorder.count, 0)
        XCTAssertEqual(binding.validation.value, .invalid("Enter a whole number."))
        XCTAssertEqual(field.text, "12x", "the user's text is left for them to fix")
    }

    @MainActor func testParseRecovers_clearsValidation() async {
        let model = Observable(12)
        let field = FakeTextField()
        let binding = field.bind(with: model, transform: .text(invalidMessage: "bad"))
        field.type("x")
        field.type(" 15 ")
        XCTAssertEqual(model.value, 15)
        XCTAssertEqual(binding.validation.value, .valid)
    }

    @MainActor func testModelWriteAfterFailedParse_replacesTextAndClearsValidation() async {
        let model = Observable(12)
        let field = FakeTextField()
        let binding = field.bind(with: model, transform: .text(invalidMessage: "bad"))
        field.type("oops")
        model.value = 20
        XCTAssertEqual(field.text, "20")
        XCTAssertTrue(binding.validation.value.isValid)
    }

    @MainActor func testTypingEquivalentText_isNotRewritten() async {
        let model = Observable(12.5)
        let field = FakeTextField()
        field.bind(with: model, transform: .text(invalidMessage: "bad"))
        field.type("12.50")
        XCTAssertEqual(model.value, 12.5)
        XCTAssertEqual(field.text, "12.50", "the user's formatting is kept while typing")
    }

    @MainActor func testValidation_reportedToGivenObservable() async {
        let model = Observable(1)
        let errors = Observable(FieldValidation.valid)
        let field = FakeTextField()
        field.bind(with: model, transform: .text(invalidMessage: "Not a number."), options: BindingOptions(validation: errors))
        field.type("one")
        XCTAssertEqual(errors.value.message, "Not a number.")
    }

    @MainActor func testIntegerTransform_refusesFractions() async {
        let model = Observable(3)
        let spin = FakeSpinButton(range: 0...10, digits: 1)
        let binding = spin.bind(with: model, transform: .integer(invalidMessage: "Whole numbers only."))
        XCTAssertEqual(spin.value, 3)
        spin.userSets(4.5)
        XCTAssertEqual(model.value, 3)
        XCTAssertEqual(binding.validation.value.message, "Whole numbers only.")
        spin.userSets(5)
        XCTAssertEqual(model.value, 5)
    }

    @MainActor func testOptionalTransform_nilShowsPlaceholderAndUserGivesValue() async {
        let model = Observable<Double?>(nil)
        let spin = FakeSpinButton(range: 0...60, digits: 1, value: 5)
        spin.bind(with: model, transform: .optional(.identity, placeholder: 0))
        XCTAssertEqual(spin.value, 0)
        XCTAssertNil(model.value, "showing the placeholder does not set the model")
        spin.userSets(12.5)
        XCTAssertEqual(model.value, 12.5)
        model.value = nil
        XCTAssertEqual(spin.value, 0)
    }

    // MARK: - Commit policy

    @MainActor func testOnCommitPolicy_waitsForCommit() async {
        let model = Observable("")
        let field = FakeTextField()
        field.bind(with: model, options: BindingOptions(commitPolicy: .onCommit))
        field.type("draft")
        XCTAssertEqual(model.value, "")
        field.commit()
        XCTAssertEqual(model.value, "draft")
    }

    @MainActor func testReformatsOnCommit_showsTheModelsFormOnceCommitted() async {
        let model = Observable(0)
        let field = FakeTextField()
        let grouped = ValueTransform<Int, String>(
            toControl: { number in
                var digits = String(number)
                var index = digits.endIndex
                while digits.distance(from: digits.startIndex, to: index) > 3 {
                    index = digits.index(index, offsetBy: -3)
                    digits.insert(",", at: index)
                }
                return digits
            },
            toModel: { text in Int(text.filter { $0 != "," }).map { .success($0) } ?? .failure(ValueTransform<Int, String>.ConversionError("bad")) }
        )
        field.bind(with: model, transform: grouped, options: BindingOptions(reformatsOnCommit: true))
        let recorder = Recorder(model)
        field.type("12000")
        XCTAssertEqual(model.value, 12000)
        XCTAssertEqual(field.text, "12000", "typing is left alone")
        field.commit()
        XCTAssertEqual(field.text, "12,000")
        XCTAssertEqual(recorder.received, [12000], "the model hears the number once")
        field.type("12,0x")
        field.commit()
        XCTAssertEqual(field.text, "12,0x", "what the model refused stays to be corrected")

        let plain = FakeTextField()
        let other = Observable(0)
        plain.bind(with: other, transform: grouped)
        plain.type("12000")
        plain.commit()
        XCTAssertEqual(plain.text, "12000", "off by default")
    }

    @MainActor func testEveryChangePolicy_commitIsHarmless() async {
        let model = Observable("")
        let field = FakeTextField()
        field.bind(with: model)
        let recorder = Recorder(model)
        field.type("x")
        field.commit()
        XCTAssertEqual(recorder.received, ["x"])
    }

    @MainActor func testCommitWithoutChange_pushesNothing() async {
        let model = Observable<Double?>(nil)
        let spin = FakeSpinButton(range: 0...60, digits: 1)
        spin.bind(with: model, transform: .optional(.identity, placeholder: 0))
        let field = FakeTextField()
        let text = Observable("kept")
        field.bind(with: text)
        field.commit()
        spin.userSets(0)   // the value it already shows: GTK reports nothing new
        XCTAssertNil(model.value, "focus passing through leaves an unanswered field unanswered")
        XCTAssertEqual(text.value, "kept")
    }

    @MainActor func testEnteredValueEqualToPlaceholder_reachesModel() async {
        let model = Observable<String?>(nil)
        let field = FakeTextField()
        field.bind(with: model, transform: .optional(.identity, placeholder: ""))
        field.commit()
        XCTAssertNil(model.value, "a plain commit of the placeholder is no answer")
        field.enter()
        XCTAssertEqual(model.value, "", "an entered value is, even when it equals the placeholder")
    }

    @MainActor func testCommitAfterFailedParse_reportsAgain() async {
        let model = Observable(3)
        let field = FakeTextField()
        let binding = field.bind(with: model, transform: .text(invalidMessage: "bad"), options: BindingOptions(commitPolicy: .onCommit))
        field.type("x")
        XCTAssertTrue(binding.validation.value.isValid, "nothing is judged before the commit")
        field.commit()
        XCTAssertEqual(binding.validation.value, .invalid("bad"))
        XCTAssertEqual(model.value, 3)
    }

    @MainActor func testControlRejection_setsValidationAndKeepsModel() async {
        let model = Observable(12.0)
        let field = FakeTextField()
        let binding = field.bind(with: model, transform: .text(invalidMessage: "bad"))
        let recorder = Recorder(model)
        field.reject("“abc” is not a number")
        XCTAssertEqual(binding.validation.value, .invalid("“abc” is not a number"))
        XCTAssertEqual(model.value, 12)
        field.commit()   // the control shows the model's value again
        XCTAssertTrue(binding.validation.value.isValid)
        XCTAssertEqual(recorder.count, 0)
    }

    @MainActor func testTypingBackToModelValue_clearsValidation() async {
        let model = Observable(12)
        let field = FakeTextField()
        let binding = field.bind(with: model, transform: .text(invalidMessage: "bad"))
        field.type("12x")
        XCTAssertFalse(binding.validation.value.isValid)
        field.type("12")
        XCTAssertTrue(binding.validation.value.isValid)
    }

    @MainActor func testTargetRefusingBinder_bindingNeverConnects() async {
        let model = Observable("x")
        let field = FakeTextField(text: "untouched")
        field.refusesBinders = true
        let binding = field.bind(with: model)
        XCTAssertFalse(binding.isActive)
        XCTAssertEqual(model._observerCount, 0)
        XCTAssertEqual(field.handlerCount, 0)
        XCTAssertEqual(field.text, "untouched")
    }

    // MARK: - Lifetime

    @MainActor func testUnbind_disconnectsBothSides() async {
        let model = Observable("a")
        let field = FakeTextField()
        let binding = field.bind(with: model)
        binding.unbind()
        XCTAssertFalse(binding.isActive)
        XCTAssertNil(field.binder)
        XCTAssertEqual(field.handlerCount, 0)
        XCTAssertEqual(model._observerCount, 0)
        model.value = "b"
        XCTAssertEqual(field.text, "a")
        field.type("c")
        XCTAssertEqual(model.value, "b")
    }

    @MainActor func testRebind_replacesOldBinding() async {
        let first = Observable("first"), second = Observable("second")
        let field = FakeTextField()
        let old = field.bind(with: first)
        let new = field.bind(with: second)
        XCTAssertFalse(old.isActive)
        XCTAssertTrue(new.isActive)
        XCTAssertTrue(field.binder === new)
        XCTAssertEqual(field.handlerCount, 1, "bindings do not pile up")
        XCTAssertEqual(first._observerCount, 0)
        field.type("typed")
        XCTAssertEqual(first.value, "first")
        XCTAssertEqual(second.value, "typed")
    }

    @MainActor func testBindingAgainToSameModel_doesNotPileUp() async {
        let model = Observable("x")
        let field = FakeTextField()
        for _ in 0..<10 { field.bind(with: model) }
        XCTAssertEqual(model._observerCount, 1)
        XCTAssertEqual(field.handlerCount, 1)
    }

    @MainActor func testReleasedControl_endsBinding() async {
        let model = Observable("x")
        var field: FakeTextField? = FakeTextField()
        weak let weakBinding = field!.bind(with: model)
        XCTAssertEqual(model._observerCount, 1)
        field = nil
        XCTAssertNil(weakBinding, "the binding lived only through its control")
        XCTAssertEqual(model._observerCount, 0)
        model.value = "later"   // no crash
    }

    @MainActor func testReleasedModel_endsBindingAndLeavesControlAlone() async {
        var model: Observable<String>? = Observable("x")
        weak let weakModel = model
        let field = FakeTextField()
        let binding = field.bind(with: model!)
        model = nil
        XCTAssertNil(weakModel, "the binding does not keep the model alive")
        XCTAssertFalse(binding.isActive)
        field.type("typed after")   // no crash
        XCTAssertEqual(field.text, "typed after")
        XCTAssertNil(field.binder, "the first event after the model died cut the binding")
    }

    @MainActor func testBindingDoesNotKeepControlAlive() async {
        let model = Observable("x")
        var field: FakeTextField? = FakeTextField()
        weak let weakField = field
        let binding = field!.bind(with: model)
        field = nil
        XCTAssertNil(weakField)
        XCTAssertFalse(binding.isActive)
    }

    // MARK: - Batches

    @MainActor func testModelChangedInBatch_controlWrittenOnce() async {
        let model = Observable("")
        let field = FakeTextField()
        field.bind(with: model)
        batch {
            model.value = "a"
            model.value = "ab"
            model.value = "abc"
        }
        XCTAssertEqual(field.text, "abc")
        XCTAssertEqual(field.programmaticSets, 1)
    }

    // MARK: - One way

    @MainActor func testObserveFor_showsSourceOneWay() async {
        let salary = Observable<Float>(85_000)
        let label = FakeLabel()
        label.observe(for: salary.map { "\($0 / 1000)k" }) { label, text in label.text = text }
        XCTAssertEqual(label.text, "85.0k")
        salary.value = 90_000
        XCTAssertEqual(label.text, "90.0k")
    }

    @MainActor func testObserveFor_replacesOldBindingAndEndsWithTarget() async {
        let a = Observable("a"), b = Observable("b")
        var label: FakeLabel? = FakeLabel()
        label!.observe(for: a) { $0.text = $1 }
        label!.observe(for: b) { $0.text = $1 }
        XCTAssertEqual(a._observerCount, 0)
        a.value = "a2"
        XCTAssertEqual(label!.text, "b")
        label = nil
        XCTAssertEqual(b._observerCount, 0)
    }

    @MainActor func testOneWayIntoBindable_neverWritesBack() async {
        let source = Observable("shown")
        let field = FakeTextField()
        field.observe(for: source)
        XCTAssertEqual(field.text, "shown")
        field.type("user text")
        XCTAssertEqual(source.value, "shown")
    }
}
