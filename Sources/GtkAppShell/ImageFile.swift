import CTwoWayBindingGtkShims
public import Foundation
public import TwoWayBindingGtk

/// Photos and other files read as the desktop reads them (GdkPixbuf's
/// loaders, GIO's content types), on any thread: a 20-megapixel photo takes
/// longer to decode than a frame lasts, so the main thread never does it.
public enum ImageFile {
    /// Why an image could not be read or written; the app words it.
    public enum Failure: Error, Equatable, Sendable {
        /// No loader reads it: not an image, or a damaged one (GdkPixbuf's reason).
        case unreadable(reason: String)
        /// It declares more than `largestImage` pixels.
        case tooLarge(width: Int, height: Int)
        /// Encoding the scaled image failed (GdkPixbuf's reason).
        case notEncoded(reason: String)
    }

    /// The most pixels an image may have to be read at all: a file that
    /// claims more would take gigabytes to decode.
    public static let largestImage = 200_000_000

    /// The content type of the file at `path`, from its first bytes and its
    /// name as the desktop judges them (`image/jpeg`); a file that cannot
    /// be read is `application/octet-stream`.
    public static func mediaType(ofFile path: String) -> String {
        var head = [UInt8](repeating: 0, count: 4096)
        var count = 0
        if let handle = FileHandle(forReadingAtPath: path) {
            let data = (try? handle.read(upToCount: head.count)) ?? Data()
            try? handle.close()
            count = data.count
            head.replaceSubrange(0..<count, with: data)
        }
        // The bytes decide: a name says what a file should be, not what it
        // is. The name only narrows what the bytes say (a zip named .docx
        // is a document, a plain text named .csv a CSV).
        var guessed = head.withUnsafeBufferPointer { buffer in
            g_content_type_guess(nil, buffer.baseAddress, gsize(count), nil)
        }
        let byName = head.withUnsafeBufferPointer { buffer in
            g_content_type_guess(path, buffer.baseAddress, gsize(count), nil)
        }
        if let byName, let byBytes = guessed, g_content_type_is_a(byName, byBytes) != 0 || g_content_type_is_unknown(byBytes) != 0 {
            g_free(byBytes)
            guessed = byName
        } else {
            g_free(byName)
        }
        guard let guessed else { return "application/octet-stream" }
        defer { g_free(guessed) }
        guard let mime = g_content_type_get_mime_type(guessed) else { return "application/octet-stream" }
        defer { g_free(mime) }
        return String(cString: mime)
    }

    /// The width and height the file at `path` declares, without decoding it.
    public static func size(ofFile path: String) throws -> (width: Int, height: Int) {
        var width: gint = 0
        var height: gint = 0
        guard gdk_pixbuf_get_file_info(path, &width, &height) != nil, width > 0, height > 0 else {
            throw Failure.unreadable(reason: "")
        }
        guard Int(width) * Int(height) <= largestImage else {
            throw Failure.tooLarge(width: Int(width), height: Int(height))
        }
        return (Int(width), Int(height))
    }

    /// The image at `path` with its longer side scaled down to `longestSide`
    /// pixels and turned upright, encoded again (JPEG for a JPEG, else PNG),
    /// as ODK Collect scales a photo to a form's `max-pixels`; `nil` when
    /// it is no larger than that, to be kept as it is.
    public static func scaledDown(path: String, longestSide: Int) throws -> (data: Data, fileExtension: String)? {
        let (width, height) = try size(ofFile: path)
        guard max(width, height) > longestSide else { return nil }
        let scale = Double(longestSide) / Double(max(width, height))
        let pixbuf = try load(path, width: max(1, Int((Double(width) * scale).rounded())),
                              height: max(1, Int((Double(height) * scale).rounded())))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let jpeg = mediaType(ofFile: path) == "image/jpeg"
        return (try encode(pixbuf, as: jpeg ? "jpeg" : "png"), jpeg ? "jpg" : "png")
    }

    /// The image at `path` made to fit `width` × `height` (never enlarged),
    /// upright, as pixels a `Picture` shows.
    public static func preview(path: String, fitting width: Int, _ height: Int) throws -> ImagePixels {
        let size = try self.size(ofFile: path)
        let scale = min(1, min(Double(width) / Double(size.width), Double(height) / Double(size.height)))
        let pixbuf = try load(path, width: max(1, Int(Double(size.width) * scale)), height: max(1, Int(Double(size.height) * scale)))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, gdk_pixbuf_get_n_channels(pixbuf) == (hasAlpha ? 4 : 3),
              let bytes = gdk_pixbuf_read_pixels(pixbuf) else {
            throw Failure.unreadable(reason: "")
        }
        let data = Data(bytes: bytes, count: Int(gdk_pixbuf_get_byte_length(pixbuf)))
        guard let pixels = ImagePixels(
            width: Int(gdk_pixbuf_get_width(pixbuf)), height: Int(gdk_pixbuf_get_height(pixbuf)),
            rowStride: Int(gdk_pixbuf_get_rowstride(pixbuf)), hasAlpha: hasAlpha, bytes: data
        ) else {
            throw Failure.unreadable(reason: "")
        }
        return pixels
    }

    /// Decodes `path` at `width` × `height` (a JPEG's decoder scales while
    /// it reads, so a large photo is never held whole), turned upright as
    /// its EXIF orientation says.
    private static func load(_ path: String, width: Int, height: Int) throws -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        guard let loaded = gdk_pixbuf_new_from_file_at_scale(path, gint(width), gint(height), TWB_TRUE, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? ""
            g_clear_error(&error)
            throw Failure.unreadable(reason: reason)
        }
        // Width and height swap for a photo taken sideways.
        guard let upright = gdk_pixbuf_apply_embedded_orientation(loaded) else { return loaded }
        g_object_unref(UnsafeMutableRawPointer(loaded))
        return upright
    }

    private static func encode(_ pixbuf: OpaquePointer, as type: String) throws -> Data {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let keys = type == "jpeg" ? ["quality"] : []
        let values = type == "jpeg" ? ["90"] : []
        let saved = keys.withCStringArray { keys in
            values.withCStringArray { values in
                gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, keys, values, &error)
            }
        }
        guard saved != 0, let buffer else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? ""
            g_clear_error(&error)
            throw Failure.notEncoded(reason: reason)
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }
}

private extension Array where Element == String {
    /// The strings as a NULL-terminated C array, for the call's length.
    func withCStringArray<Result>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
        var pointers: [UnsafeMutablePointer<CChar>?] = map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
