package dev.onceonly.internal.intake;

import dev.onceonly.internal.processing.AfterBatch;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.BooleanSupplier;

/**
 * The messages one AMQP channel delivered and the platform has not yet acked, in delivery order, so
 * that one {@code basic.ack} with {@code multiple} settles every message of a group commit: on
 * RabbitMQ an ack of a quorum queue's message is a command in the queue's log, and the broker and
 * the consumer each spend less on one ack of sixteen than on sixteen (docs/rabbitmq.md, "Acks").
 *
 * <p>A message acked after its commit is sent when every message delivered before it is settled
 * too: one ack with {@code multiple} then covers it and every committed message before it. A
 * committer acks the messages of its transaction one after the other, and their ack goes out once
 * it acked the last ({@link AfterBatch}). Otherwise it waits for the earlier ones: most often
 * another committer's transaction, which commits moments later. Such an ack is never lost: the
 * message's claim is committed, and if the process stops before the ack goes out, the broker
 * delivers it again and the claim makes it a duplicate.
 *
 * <p>A message that leaves another way (requeued, dead-lettered, rejected) is settled by the
 * connector with its own frame; until that frame is sent no ack with {@code multiple} may cover it,
 * and the messages acked behind it meanwhile are acked one by one rather than wait (a dead letter
 * waits for its broker's confirm, up to its linger). The channel's sends keep their order (see
 * {@link Sender}), so every ack names a tag above the one before.
 *
 * <p>A new connection ({@link #reconnected}), or deliveries of a new consumer (a new consumer tag,
 * or a tag that does not grow: the channel was opened again), start the window afresh. The broker
 * already gave the old channel's unacked messages back to their queue, so their acks are dropped
 * here instead of naming a tag of the new channel; an ack sent for the old channel is dropped too
 * if the new one opened before it went out.
 *
 * <p>A channel numbers its deliveries 1, 2, 3... A tag skipped (a delivery that never reached the
 * platform) would be covered by an ack with {@code multiple} and never handled. So would a message
 * whose own frame the connector failed to send. From either on, until the channel opens again, the
 * window acks every message alone, at once.
 */
final class AckWindow {

  /**
   * Sends acks on the channel, in the order called, each only if {@code current} still holds when
   * it goes out (the channel did not open again meanwhile).
   */
  interface Sender {
    void ack(long deliveryTag, boolean multiple, BooleanSupplier current);
  }

  /** One delivered message's place in the window. */
  static final class Slot {
    private final long tag;
    private final long generation;
    private State state = State.IN_HAND;

    private Slot(long tag, long generation) {
      this.tag = tag;
      this.generation = generation;
    }

    long tag() {
      return tag;
    }
  }

  private enum State {
    /** Not settled yet. */
    IN_HAND,
    /** Leaving by a frame of the connector's, not yet sent: nothing may be acked over it. */
    LEAVING,
    /** Committed and to be acked. */
    ACK,
    /** Gone from the channel: acked one by one, requeued, dead-lettered or rejected. */
    SETTLED
  }

  private final Sender sender;
  private final Runnable flusher = this::flushNow;
  private final ArrayDeque<Slot> slots = new ArrayDeque<>();
  private String consumerTag;
  private long lastTag;
  private long generation;
  private int leaving;
  private boolean alone;

  AckWindow(Sender sender) {
    this.sender = sender;
  }

  /**
   * A message delivered to {@code consumerTag} with {@code deliveryTag}; called in delivery order.
   */
  synchronized Slot delivered(String consumerTag, long deliveryTag) {
    if (!consumerTag.equals(this.consumerTag) || deliveryTag <= lastTag) {
      restart();
      this.consumerTag = consumerTag;
    }
    if (deliveryTag != lastTag + 1) {
      ackAlone();
    }
    lastTag = deliveryTag;
    Slot slot = new Slot(deliveryTag, generation);
    slots.addLast(slot);
    return slot;
  }

  /** The message's outcome committed: acks it now, or with the next ack over it. */
  synchronized void ack(Slot slot) {
    if (!settle(slot, State.ACK)) {
      return;
    }
    if (alone) {
      slots.remove(slot);
      send(slot.tag, false);
    } else if (!AfterBatch.defer(flusher)) {
      flush();
    }
  }

  /**
   * The message is leaving by a frame of the connector's (a requeue, a dead letter's reject): until
   * {@link #left} no ack covers it.
   */
  synchronized void leaving(Slot slot) {
    if (current(slot) && slot.state == State.IN_HAND) {
      slot.state = State.LEAVING;
      leaving++;
      flush();
    }
  }

  /** The connector sent the message's own frame: acks may cover it. */
  synchronized void left(Slot slot) {
    if (settle(slot, State.SETTLED)) {
      if (alone) {
        slots.remove(slot);
      } else {
        flush();
      }
    }
  }

  /**
   * The connector failed to send the message's own frame: it may still be on the channel, and no
   * ack may ever cover it. The window acks every message alone from now on.
   */
  synchronized void lost(Slot slot) {
    if (settle(slot, State.SETTLED)) {
      slots.remove(slot);
      ackAlone();
    }
  }

  /** Moves a slot not yet settled to {@code settled}; false if it was, or is of an old channel. */
  private boolean settle(Slot slot, State settled) {
    if (!current(slot) || slot.state == State.ACK || slot.state == State.SETTLED) {
      return false;
    }
    if (slot.state == State.LEAVING) {
      leaving--;
    }
    slot.state = settled;
    return true;
  }

  /** The channel's connection was established again: what the window held is gone. */
  synchronized void reconnected() {
    restart();
  }

  /**
   * Whether every message is acked alone until the channel opens again (after a gap in the tags or
   * a frame the connector failed to send).
   */
  synchronized boolean alone() {
    return alone;
  }

  /** Messages in the window: delivered, and not acked or gone. */
  synchronized int unsettled() {
    int n = 0;
    for (Slot slot : slots) {
      if (slot.state != State.SETTLED) {
        n++;
      }
    }
    return n;
  }

  private synchronized boolean isAt(long generation) {
    return generation == this.generation;
  }

  private boolean current(Slot slot) {
    return slot.generation == generation;
  }

  private void restart() {
    generation++;
    slots.clear();
    consumerTag = null;
    lastTag = 0;
    leaving = 0;
    alone = false;
  }

  /**
   * From now until the channel opens again, each ack names one message and goes out at once; the
   * acks waiting now go out so, and the window keeps only what is not settled.
   */
  private void ackAlone() {
    if (alone) {
      return;
    }
    alone = true;
    Iterator<Slot> it = slots.iterator();
    while (it.hasNext()) {
      Slot slot = it.next();
      if (slot.state == State.ACK) {
        send(slot.tag, false);
        slot.state = State.SETTLED;
      }
      if (slot.state == State.SETTLED) {
        it.remove();
      }
    }
  }

  private synchronized void flushNow() {
    flush();
  }

  private void flush() {
    long upTo = 0;
    while (!slots.isEmpty()) {
      State head = slots.peekFirst().state;
      if (head != State.ACK && head != State.SETTLED) {
        break;
      }
      Slot done = slots.pollFirst();
      if (head == State.ACK) {
        upTo = done.tag;
      }
    }
    if (upTo > 0) {
      send(upTo, true);
    }
    if (leaving > 0) {
      ackBehindLeaving();
    }
  }

  /** Acks one by one what waits behind a message that is leaving, which may take long. */
  private void ackBehindLeaving() {
    boolean behind = false;
    Iterator<Slot> it = slots.iterator();
    while (it.hasNext()) {
      Slot slot = it.next();
      if (slot.state == State.LEAVING) {
        behind = true;
      } else if (behind && slot.state == State.ACK) {
        send(slot.tag, false);
        slot.state = State.SETTLED;
      }
    }
  }

  private void send(long tag, boolean multiple) {
    long at = generation;
    sender.ack(tag, multiple, () -> isAt(at));
  }
}
