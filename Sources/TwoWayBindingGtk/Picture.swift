public import CTwoWayBindingGtkShims
public import Foundation

/// Decoded pixels, 8 bits per channel, RGB or RGBA, rows `rowStride` bytes
/// apart: what a `Picture` shows. Made on any thread (decoding a photo
/// takes longer than a frame), shown on the main one.
public struct ImagePixels: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let rowStride: Int
    public let hasAlpha: Bool
    public let bytes: Data

    /// `nil` unless `bytes` holds `height` rows of `width` pixels.
    public init?(width: Int, height: Int, rowStride: Int, hasAlpha: Bool, bytes: Data) {
        let pixel = hasAlpha ? 4 : 3
        guard width > 0, height > 0, rowStride >= width * pixel,
              bytes.count >= (height - 1) * rowStride + width * pixel else { return nil }
        self.width = width
        self.height = height
        self.rowStride = rowStride
        self.hasAlpha = hasAlpha
        self.bytes = bytes
    }
}

/// A `GtkPicture`: an image scaled down to fit the space it is given,
/// keeping its proportions.
public final class Picture: Widget {
    public override class var gtkType: GType { gtk_picture_get_type() }

    /// An empty picture.
    public convenience init() {
        self.init(new: gtk_picture_new())
        guard let picture else { return }
        gtk_picture_set_can_shrink(picture, TWB_TRUE)
        gtk_picture_set_content_fit(picture, GTK_CONTENT_FIT_CONTAIN)
    }

    private var picture: OpaquePointer? { pointer.map(OpaquePointer.init) }

    /// Shows `pixels`, or nothing.
    public func show(_ pixels: ImagePixels?) {
        guard let picture else { return }
        guard let pixels else {
            gtk_picture_set_paintable(picture, nil)
            return
        }
        let bytes = pixels.bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        let texture = gdk_memory_texture_new(
            gint(pixels.width), gint(pixels.height), pixels.hasAlpha ? GDK_MEMORY_R8G8B8A8 : GDK_MEMORY_R8G8B8,
            bytes, gsize(pixels.rowStride)
        )
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        gtk_picture_set_paintable(picture, texture)
    }

    /// The size of the image shown, in pixels; `nil` when none is.
    public var imageSize: (width: Int, height: Int)? {
        guard let picture, let paintable = gtk_picture_get_paintable(picture) else { return nil }
        return (Int(gdk_paintable_get_intrinsic_width(paintable)), Int(gdk_paintable_get_intrinsic_height(paintable)))
    }
}
