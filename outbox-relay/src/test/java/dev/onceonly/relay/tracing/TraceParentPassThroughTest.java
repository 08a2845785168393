package dev.onceonly.relay.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * With tracing off (the default), no span is recorded, but the provider still gets the trace
 * context the row carries, so a provider that traces joins the message's trace.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class TraceParentPassThroughTest {

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void theRowsTraceContextReachesTheProviderUnchanged() {
    String traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    String key = OutboxRows.uniquePrefix("pass-through") + "r";
    long id = DeliveryTracingTest.insertTraced(key, traceParent);
    String untraced = OutboxRows.uniquePrefix("untraced") + "r";
    OutboxRows.insert(OutboxRows.receipt(untraced));

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(15))
        .until(() -> OutboxRows.status(id).equals("delivered"));
    await().atMost(Duration.ofSeconds(15)).until(() -> !stub.traceParents(untraced).isEmpty());

    assertThat(stub.traceParents(key)).containsExactly(traceParent);
    assertThat(stub.traceParents(untraced)).containsExactly("null");
  }
}
