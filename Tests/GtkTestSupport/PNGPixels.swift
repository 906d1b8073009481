import CTwoWayBindingGtkShims
public import Foundation
import XCTest

extension GtkTest {
    /// A PNG's size and the colour of its pixel at `x`, `y` (red, green,
    /// blue), decoded by GdkPixbuf: what a drawing widget wrote, read back.
    public static func pngPixel(_ png: Data, x: Int, y: Int) throws -> (width: Int, height: Int, pixel: [UInt8]) {
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        png.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            XCTAssertNotEqual(gdk_pixbuf_loader_write(loader, bytes.baseAddress?.assumingMemoryBound(to: guchar.self), gsize(bytes.count), nil), 0)
        }
        XCTAssertNotEqual(gdk_pixbuf_loader_close(loader, nil), 0)
        let pixbuf = try XCTUnwrap(gdk_pixbuf_loader_get_pixbuf(loader))
        let at = y * Int(gdk_pixbuf_get_rowstride(pixbuf)) + x * Int(gdk_pixbuf_get_n_channels(pixbuf))
        let pixels = try XCTUnwrap(gdk_pixbuf_read_pixels(pixbuf))
        return (Int(gdk_pixbuf_get_width(pixbuf)), Int(gdk_pixbuf_get_height(pixbuf)), [pixels[at], pixels[at + 1], pixels[at + 2]])
    }
}
