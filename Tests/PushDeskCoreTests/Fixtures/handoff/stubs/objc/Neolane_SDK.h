// Test stub of the Campaign iOS SDK header (declarations as in seed 001).
#import <Foundation/Foundation.h>

@interface Neolane_SDK : NSObject
+ (Neolane_SDK *)getInstance;
- (void)setMarketingHost:(NSString *)marketingHost;
- (void)setTrackingHost:(NSString *)trackingHost;
- (void)setIntegrationKey:(NSString *)integrationKey;
- (void)registerDevice:(NSString *)token :(NSString *)userKey :(NSDictionary *)additionalParams;
@end
