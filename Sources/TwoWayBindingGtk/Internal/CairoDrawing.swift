import CTwoWayBindingGtkShims
import Foundation

/// What the widgets that paint with cairo share: a `GtkDrawingArea`'s draw
/// function calling back into Swift, and a painting written as a PNG.
@MainActor
enum CairoDrawing {
    /// Makes `paint` the area's draw function (cairo, width, height). GTK
    /// holds the closure and frees it with the widget; it should hold its
    /// widget weakly.
    static func setDrawFunction(of area: UnsafeMutablePointer<GtkDrawingArea>, _ paint: @escaping @MainActor (OpaquePointer, Int, Int) -> Void) {
        let box = PaintBox(paint)
        gtk_drawing_area_set_draw_func(area, { _, cairo, width, height, data in
            guard let data, let cairo else { return }
            MainActor.assumeIsolated {
                Unmanaged<PaintBox>.fromOpaque(data).takeUnretainedValue().paint(cairo, Int(width), Int(height))
            }
        }, Unmanaged.passRetained(box).toOpaque(), { data in
            guard let data else { return }
            MainActor.assumeIsolated { Unmanaged<PaintBox>.fromOpaque(data).release() }
        })
    }

    /// `paint` on a `width` × `height` RGB image, as PNG bytes; `nil` when
    /// cairo cannot make one.
    static func pngData(width: Int, height: Int, _ paint: (OpaquePointer) -> Void) -> Data? {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, gint(max(1, width)), gint(max(1, height))) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { return nil }
        paint(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let sink = PNGSink()
        let status = cairo_surface_write_to_png_stream(surface, { data, bytes, length in
            guard let data, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<PNGSink>.fromOpaque(data).takeUnretainedValue().bytes.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        return status == CAIRO_STATUS_SUCCESS ? sink.bytes : nil
    }
}

@MainActor
private final class PaintBox {
    let paint: @MainActor (OpaquePointer, Int, Int) -> Void

    init(_ paint: @escaping @MainActor (OpaquePointer, Int, Int) -> Void) {
        self.paint = paint
    }
}

private final class PNGSink {
    var bytes = Data()
}
