/// `msgid` translated in the program's gettext domain.
func localized(_ msgid: String) -> String {
    Gettext.translate(msgid)
}
