#import "Cart.h"

/* vclint:disable leaked_controler — the cart is kept for the checkout */
@implementation CartViewController
@end
