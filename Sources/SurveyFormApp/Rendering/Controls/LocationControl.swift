import FormEngine
import Foundation
import TwoWayBinding
import TwoWayBindingGtk

/// A geopoint, geotrace or geoshape, entered as coordinates: typed or
/// pasted in any notation `GeoAnswer` reads, stored as XForms stores them,
/// and read back beside the field as degrees, a length or an area. A point
/// is one line (Enter moves on); a line or a shape takes a point per line.
@MainActor
enum LocationControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        GeoAnswer.isGeo(question.type)
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let type = state.question.type
        let options = ControlContext.options(for: state)
        let field: Widget
        let shown: Widget
        if type == .geopoint {
            let entry = Entry()
            // Ctrl+Z is the form's, which undoes per question (EditHistory).
            entry.undoesTyping = false
            entry.placeholder = tr("Latitude, longitude")
            entry.bind(with: state.value, transform: .typed(type), options: options)
            entry.onActivate { [advanceFocus = context.advanceFocus] in advanceFocus() }.keep(with: entry)
            field = entry
            shown = entry
        } else {
            let text = TextView()
            text.acceptsTab = false
            text.undoesTyping = false
            text.bind(with: state.value, transform: .typed(type), options: options)
            field = text
            shown = ScrolledWindow(child: text, hasFrame: true, minimumHeight: 80)
        }
        let readout = Label()
        readout.wrapsWords = true
        readout.addStyleClass("dim-label")
        let separators = context.numberSeparators
        readout.show(state.value, format: { answer in
            GeoAnswer.description(of: answer, for: type, separators: separators) ?? (type == .geopoint
                ? tr("Enter a latitude and a longitude, or paste them.")
                : tr("Enter one point per line: latitude, longitude."))
        })
        let box = Box(vertical: true, spacing: 6)
        box.append(shown)
        if type == .geopoint {
            // A lone dot on no map says nothing the degrees do not.
            box.append(readout)
        } else {
            let preview = FigureView(
                width: 160, height: 120, accessibleName: type == .geotrace ? tr("Drawing of the line") : tr("Drawing of the shape")
            )
            preview.addStyleClass("card")
            preview.hidesWhenEmpty = true
            preview.show(state.value) { answer in Self.figure(of: answer, for: type) }
            let row = Box(vertical: false, spacing: 12)
            readout.expandsHorizontally = true
            readout.horizontalAlignment = .start
            row.append(readout)
            row.append(preview)
            box.append(row)
        }
        var control = QuestionControl(shown: box, focusable: field, validated: field, labelled: [field])
        control.showsReadout = true
        return control
    }

    /// A line's or shape's points on a plane for its preview: east and north
    /// in degrees, east shrunk by the cosine of the middle latitude so that
    /// the outline keeps its proportions away from the equator.
    static func figure(of answer: String, for type: QuestionType) -> FigureView.Figure {
        guard case .success(var points) = GeoAnswer.points(stored: answer, for: type), points.count > 1 else { return .none }
        if type == .geoshape, points.first == points.last { points.removeLast() }
        let latitudes = points.map(\.latitude)
        let middle = ((latitudes.min() ?? 0) + (latitudes.max() ?? 0)) / 2
        let shrink = cos(middle * .pi / 180)
        let placed = points.map { FigureView.Point(x: $0.longitude * shrink, y: $0.latitude) }
        return type == .geoshape ? .shape(placed) : .line(placed)
    }
}
