// Test stub (Adobe Mobile SDK signature, seed 002).
package com.adobe.marketing.mobile;

import java.util.Map;

public final class MobileCore {
    public static void trackAction(String action, Map<String, String> contextData) {}
}
