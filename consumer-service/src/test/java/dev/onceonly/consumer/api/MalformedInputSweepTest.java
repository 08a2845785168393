package dev.onceonly.consumer.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import dev.onceonly.testsupport.sweep.Endpoint;
import dev.onceonly.testsupport.sweep.EndpointSweep;
import dev.onceonly.testsupport.sweep.Operation;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every operation of the consumer's OpenAPI document gets malformed input (no or wrong credentials,
 * a role too weak, unknown query parameters, NUL bytes and wrong types in every parameter, bodies
 * over the limit with and without a length, cross-site origins) and must answer each as the relay
 * does: a problem+json 4xx that says what is wrong. An operation not described below fails the
 * test.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class MalformedInputSweepTest {

  @TestHTTPResource("/")
  URI base;

  @Test
  void everyEndpointAnswersMalformedInputWithAProblemThatSaysWhatIsWrong() {
    List<Endpoint> endpoints =
        List.of(
            Endpoint.read("GET /balances/{customerId}", 404).path("customerId", "sweep-nobody"),
            Endpoint.read("GET /ledger", 200).query("customerId", "sweep-nobody"),
            Endpoint.read("GET /claims/{consumer}/{messageKey}", 404)
                .path("consumer", "loyalty")
                .path("messageKey", "order-completed:sweep-nobody"),
            Endpoint.read("GET /conflicts", 200),
            Endpoint.read("GET /rejections", 200),
            Endpoint.read("GET /audit", 200),
            Endpoint.change("POST /dead-letters/{queue}/replay", 200)
                .path("queue", "profiles")
                .query("limit", "1"));
    EndpointSweep sweep =
        new EndpointSweep(base, "viewer:viewer-secret", "admin:admin-secret", 65_536);
    List<Operation> operations = sweep.operations("viewer:viewer-secret");

    assertThat(operations).extracting(Operation::key).contains("GET /ledger");
    assertThat(sweep.findings(operations, endpoints)).isEmpty();
  }
}
