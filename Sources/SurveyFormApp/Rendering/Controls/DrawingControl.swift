import FormEngine
import Foundation
import GtkAppShell
import TwoWayBinding
import TwoWayBindingGtk

/// An image drawn rather than chosen: a `signature`, a `draw`ing, or marks
/// over a chosen photo (`annotate`). Strokes made with a mouse, a pen or a
/// finger are stored as a PNG each time one ends, which is the answer, so
/// the form's Undo takes a stroke back. A drawing cannot be made with the
/// keyboard: Choose takes an image file instead (a scanned signature), and
/// for `annotate` the photo to draw over.
@MainActor
enum DrawingControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.drawsImage
    }

    /// The drawing's own size, in pixels (shown at half of it, so a pen's
    /// line stays smooth in the stored image).
    static func canvasSize(for question: Question) -> (width: Int, height: Int) {
        question.hasAppearance("signature") ? (960, 360) : (960, 640)
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let picker = AttachmentPicker(state: state, files: context.files, showsPreview: false)
        let size = canvasSize(for: state.question)
        let canvas = DrawingCanvas(
            width: size.width, height: size.height,
            accessibleName: state.question.hasAppearance("signature") ? tr("Signature pad") : tr("Drawing area")
        )
        canvas.horizontalAlignment = .start
        canvas.addStyleClass("card")
        // The answer the canvas holds already: its own, just stored.
        var drawn: String?
        canvas.onStrokeEnded = { [weak canvas] in
            guard let canvas, let png = canvas.pngData() else { return }
            picker.take(png: png, named: { drawn = $0 })
        }
        var generation = 0
        state.value.observe(sendInitial: true) { [weak canvas] name in
            guard let canvas, name != drawn else { return }
            drawn = nil
            generation += 1
            let current = generation
            guard let url = context.files?.url(of: name) else {
                canvas.reset(background: nil)
                return
            }
            Task { [weak canvas] in
                let pixels = try? await offMainThread { try ImageFile.preview(path: url.path, fitting: 1920, 1920) }
                guard let canvas, current == generation else { return }
                canvas.reset(background: pixels)
            }
        }
        .store(in: context.bag)
        state.isReadOnly.observe(sendInitial: true) { [weak canvas] readOnly in canvas?.isSensitive = !readOnly }?.store(in: context.bag)

        return picker.control(showing: canvas, bag: context.bag)
    }
}
