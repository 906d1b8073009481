extension Question {
    /// What an attachment question takes, as its `body::accept` column lists
    /// it (`image/*`, `.pdf`, `application/pdf`, separated by commas or
    /// spaces), else what its type implies (ODK Collect's `image/*`,
    /// `audio/*`, `video/*`; anything for a file). Empty: any file.
    public var acceptedFiles: [String] {
        if let accept = extraColumns["body::accept"] {
            let patterns = accept.split { $0 == "," || $0.isWhitespace }.map { $0.lowercased() }
            if !patterns.isEmpty { return patterns }
        }
        switch type {
        case .image: return ["image/*"]
        case .audio, .backgroundAudio: return ["audio/*"]
        case .video: return ["video/*"]
        // OpenStreetMap's XML, which has no media type of its own in use.
        case .osm: return [".osm"]
        default: return []
        }
    }

    /// Whether a file named `fileName` whose content is `mediaType`
    /// (`image/jpeg`, as sniffed from its bytes) is one this question takes:
    /// a pattern `type/*` or `type/subtype` matches the content, a `.ext`
    /// pattern the name's extension.
    public func accepts(fileName: String, mediaType: String) -> Bool {
        let patterns = acceptedFiles
        guard !patterns.isEmpty else { return true }
        let media = mediaType.lowercased()
        let name = fileName.lowercased()
        return patterns.contains { pattern in
            if pattern.hasPrefix(".") { return name.hasSuffix(pattern) }
            if pattern == "*/*" || pattern == "*" { return true }
            if pattern.hasSuffix("/*") { return media.hasPrefix(pattern.dropLast()) }
            return media == pattern
        }
    }

    /// The longest side, in pixels, an image question keeps (its
    /// `max-pixels` parameter): a larger photo is scaled down to it, as
    /// ODK Collect does. `nil`: kept as it is.
    public var maxPixels: Int? {
        guard type == .image, let text = parameters["max-pixels"], let pixels = SurveyBuilder.wholeNumber(text), pixels > 0 else { return nil }
        return pixels
    }

    /// Whether the image is drawn rather than chosen: a signature, a
    /// drawing, or marks over a chosen picture (`annotate`).
    public var drawsImage: Bool {
        guard type == .image else { return false }
        return ["signature", "draw", "annotate"].contains { hasAppearance($0) }
    }
}
