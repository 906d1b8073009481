public import CTwoWayBindingGtkShims
public import Foundation
public import TwoWayBinding

/// A surface to draw on with a mouse, a pen or a finger (a `GtkDrawingArea`
/// and a drag gesture): black strokes over white, or over a picture, and
/// the whole as a PNG. For a signature or a sketch.
public final class DrawingCanvas: Widget {
    public override class var gtkType: GType { gtk_drawing_area_get_type() }

    /// One stroke: the points the pointer passed, in the canvas's pixels.
    public typealias Stroke = [(x: Double, y: Double)]

    /// The width and height the drawing has, in pixels.
    public private(set) var size: (width: Int, height: Int)
    /// What is drawn over: nothing (white), or a picture scaled to the canvas.
    public private(set) var background: ImagePixels?
    /// The background as cairo paints it.
    private let backgroundSurface = OwnedSurface()
    /// The strokes drawn over it, in order.
    public private(set) var strokes: [Stroke] = []
    /// Told when a stroke ends (the button, pen or finger lifted).
    public var onStrokeEnded: (@MainActor () -> Void)?

    private var tokens: [ObservationToken] = []

    /// How wide the canvas is shown; the drawing keeps its own size.
    private var shownWidth = 480

    /// A white canvas of `width` × `height` pixels, shown `shownWidth` wide,
    /// named `accessibleName` for a screen reader.
    public convenience init(width: Int, height: Int, shownWidth: Int = 480, accessibleName: String) {
        self.init(new: gtk_drawing_area_new())
        size = (max(1, width), max(1, height))
        self.shownWidth = shownWidth
        guard let pointer else { return }
        let area = pointer.cast(to: GtkDrawingArea.self)
        setShownSize()
        accessibleLabel = accessibleName
        CairoDrawing.setDrawFunction(of: area) { [weak self] cairo, width, height in
            self?.paint(cairo, width: width, height: height)
        }
        var start = (x: 0.0, y: 0.0)
        tokens.append(onPointerDrag { [weak self] drag in
            guard let self else { return }
            switch drag {
            case let .began(x, y):
                start = (x, y)
                let point = drawingPoint(x, y)
                beginStroke(at: point.x, point.y)
            case let .moved(dx, dy):
                let point = drawingPoint(start.x + dx, start.y + dy)
                continueStroke(to: point.x, point.y)
            case let .ended(dx, dy):
                let point = drawingPoint(start.x + dx, start.y + dy)
                continueStroke(to: point.x, point.y)
                onStrokeEnded?()
            }
        })
    }

    required init(unsafe pointer: UnsafeMutablePointer<GtkWidget>) {
        size = (0, 0)
        super.init(unsafe: pointer)
    }

    /// Starts over: `background` (or white) and no stroke; a picture gives
    /// the drawing its size (so marks over a photo keep the photo's pixels).
    public func reset(background: ImagePixels?) {
        self.background = background
        backgroundSurface.surface = background.flatMap(Self.surface(of:))
        strokes = []
        if let background {
            size = (background.width, background.height)
            setShownSize()
        }
        queueDraw()
    }

    private func setShownSize() {
        guard let area = pointer?.cast(to: GtkDrawingArea.self) else { return }
        gtk_drawing_area_set_content_width(area, gint(shownWidth))
        gtk_drawing_area_set_content_height(area, gint(max(1, (Double(shownWidth * size.height) / Double(size.width)).rounded())))
    }

    /// A point on the widget as a point of the drawing, whatever size it is shown at.
    private func drawingPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        guard let pointer else { return (x, y) }
        let width = Double(gtk_widget_get_width(pointer))
        let height = Double(gtk_widget_get_height(pointer))
        guard width > 0, height > 0 else { return (x, y) }
        return (x * Double(size.width) / width, y * Double(size.height) / height)
    }

    /// Draws a stroke through `points`, as the pointer would: for tests and
    /// for strokes given rather than drawn.
    public func draw(_ points: Stroke) {
        guard let first = points.first else { return }
        beginStroke(at: first.x, first.y)
        for point in points.dropFirst() { continueStroke(to: point.x, point.y) }
        onStrokeEnded?()
    }

    private func beginStroke(at x: Double, _ y: Double) {
        strokes.append([(x, y)])
        queueDraw()
    }

    private func continueStroke(to x: Double, _ y: Double) {
        guard !strokes.isEmpty else { return }
        strokes[strokes.count - 1].append((x, y))
        queueDraw()
    }

    private func queueDraw() {
        if let pointer { gtk_widget_queue_draw(pointer) }
    }

    /// The drawing as a PNG of `size`, or `nil` when cairo cannot make one.
    public func pngData() -> Data? {
        CairoDrawing.pngData(width: size.width, height: size.height) { cairo in
            paint(cairo, width: size.width, height: size.height)
        }
    }

    /// White, the background scaled to fill, the strokes: on screen and in
    /// the PNG alike, scaled from the drawing's size to `width` × `height`.
    private func paint(_ cairo: OpaquePointer, width: Int, height: Int) {
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_paint(cairo)
        guard size.width > 0, size.height > 0 else { return }
        cairo_save(cairo)
        cairo_scale(cairo, Double(width) / Double(size.width), Double(height) / Double(size.height))
        paintBackground(on: cairo)
        cairo_set_source_rgb(cairo, 0, 0, 0)
        cairo_set_line_width(cairo, 2.5)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        for stroke in strokes {
            guard let first = stroke.first else { continue }
            cairo_move_to(cairo, first.x, first.y)
            // A tap is a dot.
            if stroke.count == 1 { cairo_line_to(cairo, first.x + 0.1, first.y) }
            for point in stroke.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
            cairo_stroke(cairo)
        }
        cairo_restore(cairo)
    }

    private func paintBackground(on cairo: OpaquePointer) {
        guard let surface = backgroundSurface.surface else { return }
        let width = Double(cairo_image_surface_get_width(surface))
        let height = Double(cairo_image_surface_get_height(surface))
        cairo_save(cairo)
        cairo_scale(cairo, Double(size.width) / width, Double(size.height) / height)
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    /// `pixels` in cairo's own layout, made once per background: every
    /// frame of a stroke paints it again, and converting a photo's pixels
    /// each time would cost the main loop milliseconds a frame.
    private static func surface(of pixels: ImagePixels) -> OpaquePointer? {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, gint(pixels.width), gint(pixels.height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
            return nil
        }
        // Cairo's RGB24 is 32 bits a pixel, blue first in memory on little-endian machines.
        let stride = Int(cairo_image_surface_get_stride(surface))
        let channels = pixels.hasAlpha ? 4 : 3
        pixels.bytes.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            for row in 0..<pixels.height {
                for column in 0..<pixels.width {
                    let from = row * pixels.rowStride + column * channels
                    let to = row * stride + column * 4
                    data[to] = source[from + 2]
                    data[to + 1] = source[from + 1]
                    data[to + 2] = source[from]
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}

/// A cairo surface owned by one canvas, destroyed with it or when replaced.
private final class OwnedSurface {
    var surface: OpaquePointer? {
        didSet { if let oldValue, oldValue != surface { cairo_surface_destroy(oldValue) } }
    }

    deinit {
        if let surface { cairo_surface_destroy(surface) }
    }
}
