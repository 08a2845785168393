package dev.onceonly.internal.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.catalog.Specs;
import dev.onceonly.web.ProblemException;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A replay the broker stops part way is audited with what moved, and the caller is told. */
class DeadLetterResourceTest {

  private final List<String> audited = new ArrayList<>();

  private final AuditRepository audit =
      new AuditRepository(null) {
        @Override
        public void record(
            String actor, String action, String target, String filter, int affected) {
          audited.add(actor + "|" + action + "|" + target + "|" + filter + "|" + affected);
        }
      };

  private DeadLetterResource resource(DeadLetterReplayer.Report report) {
    DeadLetterReplayer replayer =
        new DeadLetterReplayer(new ConnectionFactory(), "onceonly.replay") {
          @Override
          public Report replay(ConsumerSpec consumer, int limit) {
            return report;
          }
        };
    return new DeadLetterResource(
        replayer,
        audit,
        QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("ops")).build(),
        new ConsumerCatalog(List.of(Specs.consumer("loyalty"), Specs.consumer("receipts"))));
  }

  @Test
  void aReplayStoppedPartWayIsAuditedWithWhatMovedAndAnswered503() {
    DeadLetterReplayer.Report partial =
        new DeadLetterReplayer.Report(
            "onceonly.loyalty.dlq", 3, 0, false, "the broker failed during the replay", List.of());

    assertThatThrownBy(() -> resource(partial).replay("loyalty", "10"))
        .isInstanceOfSatisfying(
            ProblemException.class,
            e -> {
              assertThat(e.status()).isEqualTo(503);
              assertThat(e.getMessage()).contains("stopped after 3 message(s) moved");
            });
    assertThat(audited)
        .containsExactly(
            "ops|dead-letter-replay|onceonly.loyalty.dlq|limit=10; stopped: the broker failed"
                + " during the replay|3");
  }

  @Test
  void aCompleteReplayIsAuditedAndReturned() throws Exception {
    DeadLetterReplayer.Report done =
        new DeadLetterReplayer.Report("onceonly.loyalty.dlq", 2, 0, true, null, List.of());

    assertThat(resource(done).replay("onceonly.loyalty.dlq", null)).isSameAs(done);
    assertThat(audited).containsExactly("ops|dead-letter-replay|onceonly.loyalty.dlq|limit=100|2");
  }
}
