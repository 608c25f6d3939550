// Test stub of the Campaign Android SDK entry point (calls as in seed 001).
package com.neolane.android.v1;

public class Neolane {
    private static final Neolane INSTANCE = new Neolane();
    public static Neolane getInstance() { return INSTANCE; }
    public void setIntegrationKey(String integrationKey) {}
    public void setMarketingHost(String marketingHost) {}
    public void setTrackingHost(String trackingHost) {}
}
