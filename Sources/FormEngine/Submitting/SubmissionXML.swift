/// A response as the XML instance ODK Collect submits for its form (the
/// `xml_submission_file` of an OpenRosa submission): the form's root
/// element, named as pyxform names it and carrying the form's id and
/// version, its questions' elements in form order, a repeat's instances as
/// repeated elements, and `meta` last (`audit`, `instanceID`,
/// `instanceName`, and `deprecatedID` for an edit). What is not relevant is
/// left out, as Collect leaves it out; a relevant question left blank is an
/// empty element. Notes and groups hold no answer: a group is written when
/// something inside it is.
public enum SubmissionXML {
    /// The document for `answers` (paths as `FormViewModel.answers()`
    /// gives them: `group/q`, `member[2]/age`) to `definition`.
    public static func document(
        for definition: FormDefinition, answers: [(path: String, value: String)],
        instanceID: String, instanceName: String? = nil, deprecatedID: String? = nil
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

        func write(_ questions: [Question], prefix: String) {
            for question in questions {
                let name = question.name
                switch question.type {
                case .audit:
                    audit = values[prefix + name]
                case .repeatGroup:
                    var position = 1
                    while occupied.contains("\(prefix)\(name)[\(position)]/") {
                        xml += "<\(name)>"
                        write(question.children, prefix: "\(prefix)\(name)[\(position)]/")
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
    static func escaped(_ text: String, attribute: Bool = false) -> String {
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
