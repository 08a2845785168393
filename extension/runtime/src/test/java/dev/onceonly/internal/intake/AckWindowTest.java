package dev.onceonly.internal.intake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.internal.processing.AfterBatch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A channel's ack window against a model of the broker's side of the channel: an ack naming a tag
 * the broker does not hold unacked is a channel error, and an ack with {@code multiple} that covers
 * a message not yet committed would lose it.
 */
class AckWindowTest {

  /** The broker's view of one channel: the deliveries not yet settled. */
  static final class Channel implements AckWindow.Sender {
    final TreeSet<Long> unacked = new TreeSet<>();
    final Set<Long> committed = new TreeSet<>();
    final List<String> frames = new ArrayList<>();
    final List<String> errors = new ArrayList<>();

    void deliver(long... tags) {
      for (long tag : tags) {
        unacked.add(tag);
      }
    }

    /** The connector's nack or reject of one delivery. */
    void nack(long tag) {
      unacked.remove(tag);
    }

    @Override
    public void ack(long tag, boolean multiple, BooleanSupplier current) {
      frames.add(tag + (multiple ? "+" : ""));
      if (!unacked.contains(tag)) {
        errors.add("unknown delivery tag " + tag);
        return;
      }
      List<Long> covered = multiple ? new ArrayList<>(unacked.headSet(tag, true)) : List.of(tag);
      for (long t : covered) {
        if (!committed.contains(t)) {
          errors.add("acked " + t + " before its commit");
        }
        unacked.remove(t);
      }
    }
  }

  private final Channel channel = new Channel();
  private final AckWindow window = new AckWindow(channel);

  private List<AckWindow.Slot> deliver(String consumer, long... tags) {
    channel.deliver(tags);
    List<AckWindow.Slot> slots = new ArrayList<>();
    for (long tag : tags) {
      slots.add(window.delivered(consumer, tag));
    }
    return slots;
  }

  private void commit(AckWindow.Slot slot) {
    channel.committed.add(slot.tag());
    window.ack(slot);
  }

  /** A committer's hand-over of one transaction's messages. */
  private void commitBatch(List<AckWindow.Slot> batch) {
    try (AfterBatch handOver = AfterBatch.open()) {
      batch.forEach(this::commit);
      assertThat(channel.frames).as("nothing goes out during the hand-over").isEmpty();
    }
  }

  @Test
  void theMessagesOfATransactionAreAckedByOneFrame() {
    List<AckWindow.Slot> slots = deliver("c1", 1, 2, 3, 4);
    commitBatch(slots);

    assertThat(channel.frames).containsExactly("4+");
    assertThat(channel.unacked).isEmpty();
    assertThat(channel.errors).isEmpty();
  }

  @Test
  void outsideATransactionsHandOverAnAckGoesOutAtOnce() {
    List<AckWindow.Slot> slots = deliver("c1", 1, 2);
    commit(slots.get(0));
    assertThat(channel.frames).containsExactly("1+");
    commit(slots.get(1));
    assertThat(channel.frames).containsExactly("1+", "2+");
  }

  @Test
  void batchesCommittedOutOfOrderAreAckedByOneFrameOnceTheEarlierOneCommits() {
    List<AckWindow.Slot> slots = deliver("c1", 1, 2, 3, 4, 5, 6, 7, 8);
    commitBatch(slots.subList(4, 8));
    assertThat(channel.frames).as("the second batch waits for the first").isEmpty();

    commitBatch(slots.subList(0, 4));

    assertThat(channel.frames).containsExactly("8+");
    assertThat(channel.unacked).isEmpty();
    assertThat(channel.errors).isEmpty();
    assertThat(window.unsettled()).isZero();
  }

  @Test
  void aMessageStillInHandIsNeverCoveredByAnAck() {
    List<AckWindow.Slot> slots = deliver("c1", 1, 2, 3);
    commit(slots.get(0));
    commit(slots.get(2));

    assertThat(channel.frames).containsExactly("1+");
    assertThat(channel.unacked).containsExactly(2L, 3L);
    assertThat(window.unsettled()).isEqualTo(2);

    commit(slots.get(1));
    assertThat(channel.frames).containsExactly("1+", "3+");
    assertThat(channel.unacked).isEmpty();
    assertThat(channel.errors).isEmpty();
  }

  @Test
  void behindAMessageThatIsLeavingCommittedMessagesAreAckedOneByOne() {
    List<AckWindow.Slot> slots = deliver("c1", 1, 2, 3, 4);
    window.leaving(slots.get(1));
    commit(slots.get(0));
    commit(slots.get(2));
    commit(slots.get(3));

    assertThat(channel.frames).containsExactly("1+", "3", "4");
    assertThat(channel.unacked).as("the requeue's own frame settles it").containsExactly(2L);

    channel.nack(2);
    window.left(slots.get(1));
    AckWindow.Slot next = deliver("c1", 5).get(0);
    commit(next);

    assertThat(channel.frames).containsExactly("1+", "3", "4", "5+");
    assertThat(channel.unacked).isEmpty();
    assertThat(channel.errors).isEmpty();
    assertThat(window.unsettled()).isZero();
  }

  @Test
  void aDeadLetterAckedAfterItsConfirmIsCoveredLikeAnyCommittedMessage() {
    List<AckWindow.Slot> slots = deliver("c1", 1, 2);
    window.leaving(slots.get(0));
    commit(slots.get(1));
    assertThat(channel.frames).containsExactly("2");

    commit(slots.get(0));
    assertThat(channel.frames).containsExactly("2", "1+");
    assertThat(channel.unacked).isEmpty();
    assertThat(channel.errors).isEmpty();
  }

  @Test
  void aDeliveryThePlatformNeverSawIsNeverAcked() {
    channel.deliver(3);
    List<AckWindow.Slot> slots = deliver("c1", 1, 2, 4, 5);
    slots.forEach(this::commit);

    assertThat(channel.frames)
        .as("from the gap on, each alone")
        .containsExactly("1", "2", "4", "5");
    assertThat(channel.unacked).containsExactly(3L);
    assertThat(channel.errors).isEmpty();
    assertThat(window.alone()).isTrue();
    assertThat(window.unsettled()).isZero();
  }

  @Test
  void aGapStillAcksWhatWaitedBeforeItAndKeepsNothingSettled() {
    List<AckWindow.Slot> slots = deliver("c1", 1, 2, 3);
    commit(slots.get(1));
    commit(slots.get(2));
    assertThat(channel.frames).as("behind message 1, still in hand").isEmpty();

    channel.deliver(4);
    List<AckWindow.Slot> later = deliver("c1", 5, 6);

    assertThat(channel.frames).containsExactly("2", "3");
    commit(slots.get(0));
    later.forEach(this::commit);
    assertThat(channel.frames).containsExactly("2", "3", "1", "5", "6");
    assertThat(channel.unacked).containsExactly(4L);
    assertThat(channel.errors).isEmpty();
    assertThat(window.unsettled()).isZero();
  }

  @Test
  void aMessageWhoseOwnFrameFailedIsNeverCovered() {
    List<AckWindow.Slot> slots = deliver("c1", 1, 2, 3);
    window.leaving(slots.get(0));
    window.lost(slots.get(0));
    commit(slots.get(1));
    commit(slots.get(2));

    assertThat(channel.frames).containsExactly("2", "3");
    assertThat(channel.unacked).as("it may still be on the channel").containsExactly(1L);
    assertThat(channel.errors).isEmpty();
    assertThat(window.unsettled()).isZero();
  }

  @Test
  void aNewConsumerStartsAfreshAndTheOldChannelsAcksAreDropped() {
    List<AckWindow.Slot> old = deliver("c1", 1, 2);
    channel.unacked.clear();
    AckWindow.Slot fresh = deliver("c2", 1).get(0);

    commit(old.get(0));
    commit(old.get(1));
    assertThat(channel.frames).as("the old channel's tags name nothing here").isEmpty();

    commit(fresh);
    assertThat(channel.frames).containsExactly("1+");
    assertThat(channel.errors).isEmpty();
  }

  @Test
  void anAckComputedBeforeAReconnectionDoesNotGoOut() {
    List<BooleanSupplier> sent = new ArrayList<>();
    AckWindow reconnecting = new AckWindow((tag, multiple, current) -> sent.add(current));
    AckWindow.Slot slot = reconnecting.delivered("c1", 1);
    reconnecting.ack(slot);
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).getAsBoolean()).isTrue();

    reconnecting.reconnected();

    assertThat(sent.get(0).getAsBoolean()).as("its tag would name the new channel's").isFalse();
    AckWindow.Slot again = reconnecting.delivered("c1", 1);
    assertThat(again.tag()).isEqualTo(1);
    assertThat(reconnecting.alone()).as("the new channel's first tag is no gap").isFalse();
  }

  @Test
  void anyOrderOfCommitsRequeuesAndDeadLettersAcksEachMessageOnceAndOnlyAfterItsCommit() {
    Random random = new Random(37);
    for (int round = 0; round < 200; round++) {
      Channel broker = new Channel();
      AckWindow w = new AckWindow(broker);
      int n = 1 + random.nextInt(64);
      List<AckWindow.Slot> slots = new ArrayList<>();
      for (long tag = 1; tag <= n; tag++) {
        broker.deliver(tag);
        slots.add(w.delivered("c", tag));
      }
      List<AckWindow.Slot> order = new ArrayList<>(slots);
      Collections.shuffle(order, random);
      List<AckWindow.Slot> leaving = new ArrayList<>();
      int i = 0;
      while (i < order.size()) {
        int batch = 1 + random.nextInt(16);
        try (AfterBatch handOver = AfterBatch.open()) {
          for (; batch > 0 && i < order.size(); batch--, i++) {
            AckWindow.Slot slot = order.get(i);
            if (random.nextInt(10) == 0) {
              w.leaving(slot);
              leaving.add(slot);
            } else {
              broker.committed.add(slot.tag());
              w.ack(slot);
            }
          }
        }
      }
      Collections.shuffle(leaving, random);
      for (AckWindow.Slot slot : leaving) {
        if (random.nextBoolean()) {
          broker.nack(slot.tag());
          w.left(slot);
        } else {
          broker.committed.add(slot.tag());
          w.ack(slot);
        }
      }

      assertThat(broker.errors).as("round %d", round).isEmpty();
      assertThat(broker.unacked).as("round %d", round).isEmpty();
      assertThat(w.unsettled()).isZero();
      assertThat(broker.frames).hasSizeLessThanOrEqualTo(n);
    }
  }
}
