import Foundation

/// Reads a data file a form names (`select_one_from_file`, `csv-external`,
/// `xml-external`, `pulldata()`) into the secondary instance ODK makes of it.
///
/// The files come with the form from anywhere, so each is bounded by
/// `FormLimits` and a broken one is refused with the line or reason, never
/// half read.
enum ExternalFileReader {
    /// The instance `id` of the file's `data`, by the file's extension.
    static func instance(id: String, fileName: String, data: Data) throws(LimitExceeded) -> SecondaryInstance {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "csv": SecondaryInstance(id: id, root: try csv(data))
        case "xml": SecondaryInstance(id: id, root: try xml(data))
        case "geojson": SecondaryInstance(id: id, root: try geoJSON(data))
        default: throw LimitExceeded("it is not a .csv, .xml or .geojson file")
        }
    }

    /// A CSV file as ODK reads it: the first row names the fields, each row
    /// after it is an `<item>`. A row with more values than the header names
    /// is refused (its values would land under the wrong names); a shorter
    /// one leaves the last fields blank, as spreadsheets write it.
    static func csv(_ data: Data) throws(LimitExceeded) -> InstanceNode {
        guard let text = String(data: data, encoding: .utf8) else {
            throw LimitExceeded("it is not UTF-8 text")
        }
        let records = try CSVLayoutReader.records(text, strict: true)
        guard let header = records.first?.map({ $0.trimmingCharacters(in: .whitespaces) }) else {
            throw LimitExceeded("it is empty; its first line must name the columns")
        }
        if let bad = header.first(where: { !isElementName($0) }) {
            throw LimitExceeded(bad.isEmpty ? "line 1: a column has no name" : "line 1: '\(bad)' cannot name a column")
        }
        var items: [InstanceNode] = []
        items.reserveCapacity(records.count - 1)
        for (offset, record) in records.dropFirst().enumerated() {
            if record.count == 1, record[0].isEmpty { continue }
            guard record.count <= header.count else {
                throw LimitExceeded("line \(offset + 2): \(record.count) values, but the first line names \(header.count) columns")
            }
            items.append(.item(header.indices.map { (header[$0], $0 < record.count ? record[$0] : "") }))
        }
        return InstanceNode(name: "root", children: items)
    }

    /// An XML file as it is: its document element and everything below,
    /// text and attributes. ODK's lists are `<root><item>…</item></root>`.
    static func xml(_ data: Data) throws(LimitExceeded) -> InstanceNode {
        guard let root = try XMLTree.parse(data) else { throw LimitExceeded("it is not well-formed XML") }
        return document(root)
    }

    /// An element already parsed (an XForm's own instance), read as a file's document element.
    static func document(_ root: XMLTree) -> InstanceNode {
        instanceNode(root).trimmingLayout()
    }

    /// An element as an instance's node: its direct text, its attributes by
    /// local name (as paths read them, `@id`), its child elements.
    private static func instanceNode(_ element: XMLTree) -> InstanceNode {
        var attributes: [String: String] = [:]
        for (name, value) in element.attributes {
            attributes[String(name.split(separator: ":").last ?? "")] = value
        }
        var text = ""
        var children: [InstanceNode] = []
        for content in element.content {
            switch content {
            case .text(let part): text += part
            case .element(let child): children.append(instanceNode(child))
            }
        }
        return InstanceNode(name: element.name, text: text, attributes: attributes, children: children)
    }

    /// A GeoJSON FeatureCollection as ODK reads it: one `<item>` per
    /// feature, its `geometry` in ODK's notation (`lat lon 0 0`, points
    /// joined by `; `), its `id` (the feature's, else its `id` property) and
    /// each other property as a field.
    static func geoJSON(_ data: Data) throws(LimitExceeded) -> InstanceNode {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw LimitExceeded("it is not JSON")
        }
        guard let collection = object as? [String: Any], collection["type"] as? String == "FeatureCollection",
              let features = collection["features"] as? [Any]
        else { throw LimitExceeded("it is not a GeoJSON FeatureCollection") }
        var items: [InstanceNode] = []
        for (number, element) in features.enumerated() {
            guard let feature = element as? [String: Any], feature["type"] as? String == "Feature",
                  let geometry = feature["geometry"] as? [String: Any],
                  let odkGeometry = Self.odkGeometry(geometry)
            else { throw LimitExceeded("feature \(number + 1) is not a Point, LineString or Polygon feature") }
            var fields: [(String, String)] = [("geometry", odkGeometry)]
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let id = feature["id"].flatMap(Self.scalarText) ?? properties["id"].flatMap(Self.scalarText)
            if let id { fields.append(("id", id)) }
            for key in properties.keys.sorted() where key != "id" && key != "geometry" && isElementName(key) {
                if let value = properties[key].flatMap(Self.scalarText) { fields.append((key, value)) }
            }
            items.append(.item(fields))
        }
        return InstanceNode(name: "root", children: items)
    }

    /// Coordinates `[lon, lat]` → `lat lon 0 0`, as Collect writes a geopoint.
    private static func odkGeometry(_ geometry: [String: Any]) -> String? {
        func point(_ value: Any) -> String? {
            guard let pair = value as? [Any], pair.count >= 2,
                  let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue else { return nil }
            let altitude = pair.count > 2 ? ((pair[2] as? NSNumber)?.doubleValue ?? 0) : 0
            return "\(numberText(lat)) \(numberText(lon)) \(numberText(altitude)) 0"
        }
        func line(_ value: Any) -> String? {
            guard let points = value as? [Any], !points.isEmpty else { return nil }
            let texts = points.compactMap(point)
            return texts.count == points.count ? texts.joined(separator: "; ") : nil
        }
        let coordinates = geometry["coordinates"] as Any
        switch geometry["type"] as? String {
        case "Point": return point(coordinates)
        case "LineString": return line(coordinates)
        case "Polygon": return (coordinates as? [Any])?.first.flatMap(line)
        default: return nil
        }
    }

    /// A whole number without a fraction, others as Swift writes them (shortest round trip).
    private static func numberText(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    private static func scalarText(_ value: Any) -> String? {
        switch value {
        case let text as String: return text
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            return Self.numberText(number.doubleValue)
        default: return nil
        }
    }

    /// Whether `name` can be an element's name, as a field must be to be read by path.
    static func isElementName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || "_-.".unicodeScalars.contains($0) }
    }
}

private extension InstanceNode {
    /// The document without the white space that only lays it out: an
    /// element with children keeps no text made of spaces and line breaks.
    func trimmingLayout() -> InstanceNode {
        var node = self
        node.children = children.map { $0.trimmingLayout() }
        if !node.children.isEmpty, node.text.allSatisfy(\.isWhitespace) { node.text = "" }
        return node
    }
}
