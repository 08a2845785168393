package dev.onceonly.consumer;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.oneOf;

import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Every endpoint: anonymous 401, viewer reads but cannot change, admin does both. */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class AuthorizationTest {

  /** Read endpoints; each answers 200 or 404 once the caller may read. */
  private static final List<String> READS =
      List.of(
          "/balances/nobody",
          "/ledger?customerId=nobody",
          "/claims/loyalty/order-completed:nobody",
          "/conflicts",
          "/rejections",
          "/audit");

  private static final String CHANGE = "/dead-letters/profiles/replay?limit=1";

  /** The management interface ({@code http://host:port/q/}): health and metrics, no login. */
  @TestHTTPResource(value = "/", management = true)
  URL management;

  @Test
  void anonymousCallersAreRefusedEverywhereButHealthAndMetrics() {
    for (String path : READS) {
      given().get(path).then().statusCode(401);
    }
    given().post(CHANGE).then().statusCode(401);
    given().baseUri(management.toString()).get("health/ready").then().statusCode(200);
    given().baseUri(management.toString()).get("metrics").then().statusCode(200);
  }

  @Test
  void wrongPasswordIsRefused() {
    given().auth().preemptive().basic("admin", "guess").get("/conflicts").then().statusCode(401);
  }

  @Test
  void viewerReadsButCannotChange() {
    assertReads(Api::viewer);
    Api.viewer().post(CHANGE).then().statusCode(403);
  }

  @Test
  void adminReadsAndChangesAndTheChangeIsAudited() {
    assertReads(Api::admin);
    Api.admin().post(CHANGE).then().statusCode(200).body("queue", equalTo("onceonly.profiles.dlq"));
    Api.viewer()
        .get("/audit")
        .then()
        .statusCode(200)
        .body("[0].actor", equalTo("admin"))
        .body("[0].action", equalTo("dead-letter-replay"))
        .body("[0].target", equalTo("onceonly.profiles.dlq"));
  }

  private static void assertReads(Supplier<RequestSpecification> caller) {
    for (String path : READS) {
      caller.get().get(path).then().statusCode(oneOf(200, 404));
    }
  }
}
