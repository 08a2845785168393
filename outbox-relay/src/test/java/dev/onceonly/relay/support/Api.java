package dev.onceonly.relay.support;

import static io.restassured.RestAssured.given;

import io.restassured.specification.RequestSpecification;

/** Requests as the test users of {@code application.properties} ({@code %test}) make them. */
public final class Api {

  public static final String VIEWER = "viewer";
  public static final String ADMIN = "admin";

  private Api() {}

  public static RequestSpecification anonymous() {
    return given();
  }

  /** Role {@code outbox-viewer}. */
  public static RequestSpecification viewer() {
    return given().auth().preemptive().basic(VIEWER, "viewer-secret");
  }

  /** Role {@code outbox-admin}. */
  public static RequestSpecification admin() {
    return given().auth().preemptive().basic(ADMIN, "admin-secret");
  }
}
