package dev.onceonly.consumer;

import static io.restassured.RestAssured.given;

import io.restassured.specification.RequestSpecification;

/** Requests as the test profile's operators (passwords of the hashed %test users). */
public final class Api {

  private Api() {}

  public static RequestSpecification viewer() {
    return given().auth().preemptive().basic("viewer", "viewer-secret");
  }

  public static RequestSpecification admin() {
    return given().auth().preemptive().basic("admin", "admin-secret");
  }
}
