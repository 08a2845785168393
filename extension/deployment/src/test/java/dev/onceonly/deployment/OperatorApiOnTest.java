package dev.onceonly.deployment;

import static io.restassured.RestAssured.given;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** With the operator API, its endpoints and the conventions they answer by are added. */
class OperatorApiOnTest {

  @RegisterExtension static final QuarkusUnitTest APP = OptInApi.service(true);

  @Test
  void theOperatorEndpointsAndTheirConventionsAreAdded() {
    given().get("/hello?unknown=1").then().statusCode(400).contentType("application/problem+json");
    given().get("/conflicts").then().statusCode(401);
  }
}
