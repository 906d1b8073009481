/// A response as the XML instance ODK Collect submits for its form (the
/// `xml_submission_file` of an OpenRosa submission): the form's root
/// element, named as pyxform names it and carrying the form's id and
/// version, its questions' elements in form order, a repeat's instances as
/// repeated elements, and `meta` last (`entity`, `audit`, `instanceID`,
/// `instanceName`, and `deprecatedID` for an edit). What is not relevant is
/// left out, as Collect leaves it out; a relevant question left blank is an
/// empty element. Notes and groups hold no answer: a group is written when
/// something inside it is.
public enum SubmissionXML {
    /// A `meta/entity` element (the ODK XForms entities specification,
    /// 2024.1.0): what the server creates or updates from the response.
    public struct Entity: Sendable, Equatable {
        public var dataset: String
        /// Where its `meta` is: `""` for the response's, else the repeat
        /// instance's answer path prefix (`tree[2]/`).
        public var path = ""
        /// `1`, or a `create_if`'s value (`true`, `false`); `nil`: not created.
        public var create: String?
        /// `1`, or an `update_if`'s value; `nil`: not updated.
        public var update: String?
        /// An update's `baseVersion`, `trunkVersion` and `branchId`.
        public var versions: (base: String, trunk: String, branch: String)?
        public var id = ""
        /// The label element's text; `nil`: no label element.
        public var label: String?

        public init(dataset: String) {
            self.dataset = dataset
        }

        public static func == (lhs: Entity, rhs: Entity) -> Bool {
            lhs.dataset == rhs.dataset && lhs.path == rhs.path && lhs.create == rhs.create && lhs.update == rhs.update
                && lhs.versions?.base == rhs.versions?.base && lhs.versions?.trunk == rhs.versions?.trunk
                && lhs.versions?.branch == rhs.versions?.branch && lhs.id == rhs.id && lhs.label == rhs.label
        }

        /// The element, its attributes in pyxform's order.
        var xml: String {
            var element = "<entity dataset=\"\(escaped(dataset, attribute: true))\""
            var attributes: [(String, String?)] = [("create", create), ("update", update)]
            if let versions { attributes += [("baseVersion", versions.base), ("trunkVersion", versions.trunk), ("branchId", versions.branch)] }
            attributes.append(("id", id))
            for case let (name, value?) in attributes { element += " \(name)=\"\(escaped(value, attribute: true))\"" }
            guard let label else { return element + "/>" }
            return element + (label.isEmpty ? "><label/></entity>" : "><label>\(escaped(label))</label></entity>")
        }
    }

    /// The document for `answers` (paths as `FormViewModel.answers()`
    /// gives them: `group/q`, `member[2]/age`) to `definition`, with the
    /// `entities` `FormViewModel.entities()` gives.
    public static func document(
        for definition: FormDefinition, answers: [(path: String, value: String)],
        instanceID: String, instanceName: String? = nil, deprecatedID: String? = nil, entities: [Entity] = []
    ) -> String {
        var values: [String: String] = [:]
        // Every path that has something below it, `member[2]/` included.
        var occupied: Set<String> = []
        for answer in answers {
            values[answer.path] = answer.value
            var prefix = ""
            for part in answer.path.split(separator: "/").dropLast() {
                prefix += part + "/"
                occupied.insert(prefix)
            }
        }

        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let settings = definition.settings
        xml += "<\(settings.rootName) id=\"\(escaped(settings.id, attribute: true))\""
        if let version = settings.version { xml += " version=\"\(escaped(version, attribute: true))\"" }
        xml += ">"
        var audit: String?
        var entityByPath: [String: Entity] = [:]
        for entity in entities { entityByPath[entity.path] = entity }

        func write(_ questions: [Question], prefix: String) {
            for question in questions {
                let name = question.name
                switch question.type {
                case .audit:
                    audit = values[prefix + name]
                case .repeatGroup:
                    var position = 1
                    while case let instance = "\(prefix)\(name)[\(position)]/", occupied.contains(instance) || entityByPath[instance] != nil {
                        xml += "<\(name)>"
                        write(question.children, prefix: instance)
                        if let entity = entityByPath[instance] { xml += "<meta>\(entity.xml)</meta>" }
                        xml += "</\(name)>"
                        position += 1
                    }
                case _ where question.type.isContainer:
                    guard occupied.contains(prefix + name + "/") else { continue }
                    xml += "<\(name)>"
                    write(question.children, prefix: prefix + name + "/")
                    xml += "</\(name)>"
                default:
                    guard let value = values[prefix + name] else { continue }
                    xml += value.isEmpty ? "<\(name)/>" : "<\(name)>\(escaped(value))</\(name)>"
                }
            }
        }
        write(definition.questions, prefix: "")

        xml += "<meta>"
        if let entity = entityByPath[""] { xml += entity.xml }
        if let audit { xml += audit.isEmpty ? "<audit/>" : "<audit>\(escaped(audit))</audit>" }
        xml += "<instanceID>\(escaped(instanceID))</instanceID>"
        if definition.settings.instanceName != nil {
            xml += instanceName.map { "<instanceName>\(escaped($0))</instanceName>" } ?? "<instanceName/>"
        }
        if let deprecatedID { xml += "<deprecatedID>\(escaped(deprecatedID))</deprecatedID>" }
        xml += "</meta></\(settings.rootName)>\n"
        return xml
    }

    /// `text` as XML character data (or an attribute's value): the five
    /// special characters escaped, and the characters XML 1.0 cannot hold
    /// at all (controls other than tab and line ends) left out, so that a
    /// pasted control character cannot make the document unreadable.
    public static func escaped(_ text: String, attribute: Bool = false) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            case "\r": result += "&#13;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
