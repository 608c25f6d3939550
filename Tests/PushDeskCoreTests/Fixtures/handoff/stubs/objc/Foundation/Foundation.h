// Test stub: a self-contained stand-in for the few Foundation declarations the generated
// snippet uses, so `clang -x objective-c -fsyntax-only` can check it on Linux (no SDK here).
#ifndef PUSHDESK_STUB_FOUNDATION_H
#define PUSHDESK_STUB_FOUNDATION_H

typedef signed char BOOL;
typedef unsigned long NSUInteger;
#define nil ((id)0)
#define YES ((BOOL)1)
#define NO ((BOOL)0)

__attribute__((objc_root_class))
@interface NSObject
+ (instancetype)alloc;
- (instancetype)init;
@end

@interface NSString : NSObject
@end

@interface NSMutableString : NSString
+ (instancetype)stringWithCapacity:(NSUInteger)capacity;
- (void)appendFormat:(NSString *)format, ...;
@end

@interface NSData : NSObject
- (const void *)bytes;
- (NSUInteger)length;
@end

@interface NSDictionary : NSObject
+ (instancetype)dictionary;
+ (instancetype)dictionaryWithObjectsAndKeys:(id)firstObject, ... __attribute__((sentinel));
- (id)objectForKey:(id)key;
@end

@interface NSMutableDictionary : NSDictionary
- (void)setObject:(id)object forKey:(id)key;
@end

#endif
