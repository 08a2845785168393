package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.model.BrokerNodes.Node;
import org.junit.jupiter.api.Test;

class BrokerNodesTest {

  @Test
  void readsACommaSeparatedListInOrderWithTheAmqpPortWhereNoneIsGiven() {
    assertThat(BrokerNodes.parse("rabbit-0:5672, rabbit-1:5673,rabbit-2", "RABBITMQ_ADDRESSES"))
        .containsExactly(
            new Node("rabbit-0", 5672), new Node("rabbit-1", 5673), new Node("rabbit-2", 5672));
    assertThat(BrokerNodes.text(BrokerNodes.parse("a:1,b", "x"))).isEqualTo("a:1,b:5672");
  }

  @Test
  void aBadEntryIsRefusedNamingTheSettingAndTheEntry() {
    for (String bad : new String[] {"a:5672,,b:5672", "a:port", "a:0", "a:70000", ":5672", "a b"}) {
      assertThatThrownBy(() -> BrokerNodes.parse(bad, "rabbitmq-addresses"))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("rabbitmq-addresses must list broker nodes as host:port")
          .hasMessageContaining("was '" + bad + "'");
    }
  }
}
