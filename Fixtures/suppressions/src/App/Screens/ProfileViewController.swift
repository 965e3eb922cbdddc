import UIKit

// vclint:disable leaked_controller
final class ProfileViewController: UIViewController {}
