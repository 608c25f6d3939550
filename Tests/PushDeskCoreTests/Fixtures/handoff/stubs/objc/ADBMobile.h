// Test stub of the Adobe Mobile SDK tracking call (seed 002).
#import <Foundation/Foundation.h>

@interface ADBMobile : NSObject
+ (void)trackAction:(NSString *)action data:(NSDictionary *)data;
@end
