import UIKit

// vclint:disable leaked_controller — the app-wide session screen lives forever
@MainActor
final class SessionViewController: UIViewController {
    // vclint:disable-next-line late_dealloc — the player tears its layers down first
    deinit {}
}
