public import Foundation

/// What an expression reads from the form it runs in.
public protocol EvaluationContext {
    /// The values `${name}` selects ("" for an unanswered question): one for a question outside
    /// repeats or in the expression's own repeat instance, every instance's value for a question
    /// in a repeat the expression is outside of, and none if no such node exists.
    func values(of name: String) -> [String]
    /// `.`: the value of the question the expression belongs to.
    var currentValue: String { get }
    /// `position(..)`: the 1-based index of the enclosing repeat instance, or nil outside repeats.
    var position: Int? { get }
    /// `indexed-repeat(${name}, ${repeat}, index)`: the value in the repeat's 1-based instance.
    func indexedRepeatValue(of name: String, repeat: String, index: Int) -> String?
    /// `jr:choice-name(choice, '${name}')`: the choice's label in the current language.
    func choiceLabel(of choice: String, question name: String) -> String?
    /// The moment `now()` and `today()` report.
    var now: Date { get }
    /// The time zone dates and times are shown in.
    var timeZone: TimeZone { get }
    /// What a bare name in a path selects; see the default below.
    func pathValues(of name: String) -> [String]
    /// `/data/@id`, `/data/@version`: an attribute of the form's root, or nil if it has none.
    func rootAttribute(_ name: String) -> String?
    /// `resident[age > 10]`: the instances of the repeat `name`, each as an expression of that
    /// instance sees the form, or nil when `name` is not a repeat this expression is outside of.
    func repeatInstances(of name: String) -> [Self]?
    /// `.` and the functions that read the context node when given no argument: the question's
    /// value, except inside a predicate on a secondary instance, where it is the item tried.
    var contextNodeValue: String { get }
    /// What `current()/../name` selects: the form's node, even inside a predicate whose bare
    /// names read an item or a choice.
    func formPathValues(of name: String) -> [String]
    /// `instance('id')`: a choice list or a file beside the form, or nil if the form has none.
    func secondaryInstance(_ id: String) -> SecondaryInstance?
    /// `jr:itext('id')`: the text of that id in the current language, or nil if there is none.
    func itext(_ id: String) -> String?
    /// The item of a secondary instance a predicate is trying, whose tree relative paths walk.
    var instanceItem: InstanceItem? { get }
    /// `${last-saved#name}`: the question's answer in the response last saved
    /// to the form, or nil when none was saved (an empty node-set).
    func lastSavedValue(of name: String) -> String?
}

extension EvaluationContext {
    /// What a bare name in a path (`state`, not `${state}`) selects. In a
    /// `choice_filter` that is a column of the choice being tried; elsewhere
    /// forms only reach questions, so it reads like `${name}`.
    public func pathValues(of name: String) -> [String] {
        values(of: name)
    }

    /// No root attributes: a context apart from a form.
    public func rootAttribute(_ name: String) -> String? { nil }

    /// No repeats to filter: a context apart from a form.
    public func repeatInstances(of name: String) -> [Self]? { nil }

    /// The question's value: outside instance predicates the context node is the question.
    public var contextNodeValue: String { currentValue }

    /// As a bare name reads, where no predicate gives bare names another meaning.
    public func formPathValues(of name: String) -> [String] { pathValues(of: name) }

    /// No secondary instances: a context apart from a form.
    public func secondaryInstance(_ id: String) -> SecondaryInstance? { nil }

    /// No texts by id: a context apart from a form.
    public func itext(_ id: String) -> String? { nil }

    /// Outside instance predicates, relative paths read the form.
    public var instanceItem: InstanceItem? { nil }

    /// No responses saved: a context apart from a form.
    public func lastSavedValue(of name: String) -> String? { nil }
}
