public import CTwoWayBindingGtkShims
public import Foundation
public import TwoWayBinding

/// A small drawing of places on a plane (a `GtkDrawingArea` a screen reader
/// hears as a picture): points, a line through them or a closed shape,
/// scaled to fit with its proportions kept, centred, larger `y` up (north,
/// for coordinates). A preview beside what was typed as text, drawn in the
/// theme's text colour.
public final class FigureView: Widget {
    public override class var gtkType: GType { gtk_drawing_area_get_type() }

    /// What is drawn.
    public enum Figure: Equatable, Sendable {
        case none
        /// Dots.
        case points([Point])
        /// A line through the points, each marked.
        case line([Point])
        /// A closed outline through the points, filled lightly.
        case shape([Point])

        public var points: [Point] {
            switch self {
            case .none: []
            case .points(let points), .line(let points), .shape(let points): points
            }
        }
    }

    /// A place on the plane: `x` east, `y` north.
    public struct Point: Equatable, Sendable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The room kept between the figure and the edges, in pixels.
    public static let margin = 10.0

    /// What is drawn now.
    public var figure: Figure = .none {
        didSet {
            guard figure != oldValue, let pointer else { return }
            if hidesWhenEmpty { isVisible = !figure.points.isEmpty }
            gtk_widget_queue_draw(pointer)
        }
    }

    /// Whether the view is hidden while it has nothing to draw, taking no room.
    public var hidesWhenEmpty = false {
        didSet { if hidesWhenEmpty { isVisible = !figure.points.isEmpty } }
    }

    /// An empty drawing `width` × `height` pixels, named `accessibleName`.
    public convenience init(width: Int, height: Int, accessibleName: String) {
        self.init(new: twb_drawing_area_new_image())
        guard let pointer else { return }
        let area = pointer.cast(to: GtkDrawingArea.self)
        gtk_drawing_area_set_content_width(area, gint(max(1, width)))
        gtk_drawing_area_set_content_height(area, gint(max(1, height)))
        accessibleLabel = accessibleName
        CairoDrawing.setDrawFunction(of: area) { [weak self] cairo, width, height in
            self?.paint(cairo, width: Double(width), height: Double(height))
        }
    }

    required init(unsafe pointer: UnsafeMutablePointer<GtkWidget>) {
        super.init(unsafe: pointer)
    }

    /// Draws `source` through `figure`, now and after each change, replacing
    /// any binding this view had.
    @discardableResult
    public func show<Source: ObservableValue>(
        _ source: Source,
        figure: @escaping (Source.Value) -> Figure
    ) -> AnyBinding {
        observe(for: source) { view, value in view.figure = figure(value) }
    }

    /// Where each point of the figure lands on a `width` × `height` drawing:
    /// scaled alike on both axes to fill it within `margin`, centred, `y`
    /// flipped so that north is up. A lone point (or several at one place)
    /// is in the middle.
    public func placed(width: Double, height: Double) -> [Point] {
        let points = figure.points
        guard let first = points.first else { return [] }
        var (minX, maxX, minY, maxY) = (first.x, first.x, first.y, first.y)
        for point in points {
            minX = min(minX, point.x); maxX = max(maxX, point.x)
            minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        let room = (x: max(width - 2 * Self.margin, 1), y: max(height - 2 * Self.margin, 1))
        let spans = (x: maxX - minX, y: maxY - minY)
        var scale = Double.infinity
        if spans.x > 0 { scale = min(scale, room.x / spans.x) }
        if spans.y > 0 { scale = min(scale, room.y / spans.y) }
        if !scale.isFinite { scale = 0 }
        let offset = (x: (width - spans.x * scale) / 2, y: (height - spans.y * scale) / 2)
        return points.map { point in
            Point(x: offset.x + (point.x - minX) * scale, y: height - (offset.y + (point.y - minY) * scale))
        }
    }

    /// The drawing as a PNG of `width` × `height` over white: what a screen
    /// shows in a light theme.
    public func pngData(width: Int, height: Int) -> Data? {
        CairoDrawing.pngData(width: width, height: height) { cairo in
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_paint(cairo)
            paint(cairo, width: Double(width), height: Double(height), colour: (0, 0, 0))
        }
    }

    /// In the theme's text colour, so that a dark theme shows it too.
    private func paint(_ cairo: OpaquePointer, width: Double, height: Double) {
        var colour = GdkRGBA(red: 0, green: 0, blue: 0, alpha: 1)
        if let pointer { gtk_style_context_get_color(gtk_widget_get_style_context(pointer), &colour) }
        paint(cairo, width: width, height: height, colour: (Double(colour.red), Double(colour.green), Double(colour.blue)))
    }

    private func paint(_ cairo: OpaquePointer, width: Double, height: Double, colour: (Double, Double, Double)) {
        let placed = placed(width: width, height: height)
        guard let first = placed.first else { return }
        cairo_set_line_width(cairo, 2)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        switch figure {
        case .shape:
            cairo_move_to(cairo, first.x, first.y)
            for point in placed.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
            cairo_close_path(cairo)
            cairo_set_source_rgba(cairo, colour.0, colour.1, colour.2, 0.2)
            cairo_fill_preserve(cairo)
            cairo_set_source_rgb(cairo, colour.0, colour.1, colour.2)
            cairo_stroke(cairo)
        case .line:
            cairo_set_source_rgb(cairo, colour.0, colour.1, colour.2)
            cairo_move_to(cairo, first.x, first.y)
            for point in placed.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
            cairo_stroke(cairo)
        case .points, .none:
            cairo_set_source_rgb(cairo, colour.0, colour.1, colour.2)
        }
        // Every point marked: a lone point is a dot, a line's vertices show.
        let radius = placed.count == 1 ? 5.0 : 3.0
        for point in placed {
            cairo_new_sub_path(cairo)
            cairo_arc(cairo, point.x, point.y, radius, 0, 2 * Double.pi)
        }
        cairo_fill(cairo)
    }
}
