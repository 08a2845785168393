package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PrivateRabbitTest {

  @Test
  void policyPatternTakesTheDeadLetterQueuesAndNoConsumerQueue() {
    Pattern pattern = Pattern.compile(PrivateRabbit.DEAD_LETTER_QUEUES);

    for (String queue : Lab.QUEUES) {
      assertThat(pattern.matcher(queue).find())
          .as(queue)
          .isEqualTo(Lab.DEAD_LETTER_QUEUES.contains(queue));
    }
    assertThat(pattern.matcher("onceonly.loyalty.dlq.copy").find()).isFalse();
  }

  @Test
  void classicQueuesUnderThePolicyAndQuorumQueuesPass() {
    String listing =
        """
        name\ttype\tpolicy
        onceonly.loyalty\tquorum\t
        onceonly.loyalty.dlq\tclassic\tonceonly-dead-letters
        onceonly.receipts.dlq\tquorum\t
        onceonly.profiles.dlq\tclassic\tonceonly-dead-letters
        """;

    assertThat(PrivateRabbit.withoutPolicy(listing, Lab.DEAD_LETTER_QUEUES)).isEmpty();
  }

  @Test
  void classicQueuesWithoutThePolicyOrMissingAreNamed() {
    String listing =
        """
        name\ttype\tpolicy
        onceonly.loyalty.dlq\tclassic\tonceonly-dead-letters
        onceonly.receipts.dlq\tclassic\t
        onceonly.profiles\tclassic\tonceonly-dead-letters
        """;

    assertThat(PrivateRabbit.withoutPolicy(listing, Lab.DEAD_LETTER_QUEUES))
        .containsExactly("onceonly.receipts.dlq", "onceonly.profiles.dlq");
  }
}
