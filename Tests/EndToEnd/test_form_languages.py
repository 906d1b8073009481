"""The form's own translations: the form opens in the desktop's language
when it has it, else in its default_language, and the main menu switches
labels, hints, choices and messages live, keeping every answer."""

from pathlib import Path

from conftest import Atspi, field_text, wait_for

LANGUAGES = Path(__file__).parent / "forms" / "languages.md"


def test_the_form_opens_in_the_desktops_language(launch):
    app = launch(args=[str(LANGUAGES)], LANGUAGE="de")
    app.wait_focus((Atspi.Role.TEXT, "Ihr Name"), "the German label")
    assert app.control(Atspi.Role.TEXT, "Ihr Name").get_description() == "Wie im Pass"
    assert app.find_all(Atspi.Role.RADIO_BUTTON, "Ja") and app.find_all(Atspi.Role.RADIO_BUTTON, "Nein")
    assert not app.find_all(Atspi.Role.RADIO_BUTTON, "Yes")


def test_the_menu_switches_the_forms_language_and_keeps_the_answers(launch):
    app = launch(args=[str(LANGUAGES)])
    app.wait_focus((Atspi.Role.TEXT, "Your name"), "the default language, English")
    app.type("Ada")
    app.key("Tab")
    app.wait_focus((Atspi.Role.TEXT, "Age"))
    app.type("200")
    app.key("Tab")
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "Too old"), "the English constraint message")

    # F10 opens the main menu; its Form Language submenu lists the languages.
    app.key("F10")
    wait_for(lambda: app.find_all(Atspi.Role.MENU_ITEM, "Form Language"), "the main menu")
    app.down_to("Form Language")
    app.key("Return")
    wait_for(lambda: app.find_all(Atspi.Role.RADIO_MENU_ITEM, "Français (fr)") or
             app.find_all(where=lambda n: n.get_name() == "Français (fr)"), "the form's languages")
    app.down_to("Français (fr)")
    app.key("Return")

    wait_for(lambda: app.find_all(Atspi.Role.TEXT, "Votre nom"), "the French labels")
    name = app.control(Atspi.Role.TEXT, "Votre nom")
    assert name.get_description() == "Comme sur le passeport", "the hint follows"
    assert field_text(name) == "Ada", "the answer stays"
    assert app.find_all(Atspi.Role.RADIO_BUTTON, "Oui"), "the choices follow"
    wait_for(lambda: app.find_all(Atspi.Role.LABEL, "Trop vieux"), "the message follows")
    assert not app.find_all(Atspi.Role.LABEL, "Too old")
    assert app.title() == "Languages"
