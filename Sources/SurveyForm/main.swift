import Foundation
import SurveyFormApp

// GTK calls back on this thread only; everything from here on is main-actor work.
let status = MainActor.assumeIsolated {
    SurveyApplication().run()
}
exit(status)
