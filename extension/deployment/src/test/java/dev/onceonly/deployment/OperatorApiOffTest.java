package dev.onceonly.deployment;

import static io.restassured.RestAssured.given;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Without the operator API, the platform changes nothing of the service's own HTTP API. */
class OperatorApiOffTest {

  @RegisterExtension static final QuarkusUnitTest APP = OptInApi.service(false);

  @Test
  void theServicesOwnEndpointsAreLeftAloneAndNoOperatorEndpointExists() {
    given().get("/hello?unknown=1").then().statusCode(200);
    given().auth().preemptive().basic("viewer", "secret").get("/conflicts").then().statusCode(404);
  }
}
