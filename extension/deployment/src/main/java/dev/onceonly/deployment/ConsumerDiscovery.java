package dev.onceonly.deployment;

import dev.onceonly.api.Dated;
import dev.onceonly.api.IdempotentHandler;
import dev.onceonly.api.MessageDecoder;
import dev.onceonly.api.OnceOnlyConsumer;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

/**
 * Finds the classes annotated {@link OnceOnlyConsumer} in the application's index and checks them,
 * collecting every mistake before it fails the build with one message that names each class: a
 * consumer without a channel or a valid name, two consumers with one name or one channel, a class
 * that is no {@link IdempotentHandler} or whose event type is not concrete, an event type the
 * default decoder cannot read (abstract without Jackson type information, no constructor Jackson
 * can use) or that has no date ({@link Dated}).
 */
final class ConsumerDiscovery {

  static final DotName CONSUMER = DotName.createSimple(OnceOnlyConsumer.class);
  static final DotName HANDLER = DotName.createSimple(IdempotentHandler.class);
  static final DotName DECODER = DotName.createSimple(MessageDecoder.class);
  static final DotName DATED = DotName.createSimple(Dated.class);
  static final DotName OBJECT = DotName.createSimple(Object.class);
  static final DotName RECORD = DotName.createSimple(Record.class);
  static final DotName JSON_TYPE_INFO =
      DotName.createSimple("com.fasterxml.jackson.annotation.JsonTypeInfo");
  static final DotName JSON_CREATOR =
      DotName.createSimple("com.fasterxml.jackson.annotation.JsonCreator");

  private ConsumerDiscovery() {}

  static List<FoundConsumer> discover(IndexView index) {
    List<String> problems = new ArrayList<>();
    List<FoundConsumer> found = new ArrayList<>();
    for (AnnotationInstance annotation : index.getAnnotations(CONSUMER)) {
      if (annotation.target().kind() != AnnotationTarget.Kind.CLASS) {
        continue;
      }
      FoundConsumer consumer = check(annotation.target().asClass(), annotation, index, problems);
      if (consumer != null) {
        found.add(consumer);
      }
    }
    unique(found, FoundConsumer::name, "named", problems);
    unique(found, FoundConsumer::channel, "reading channel", problems);
    if (!problems.isEmpty()) {
      throw new IllegalStateException(
          "OnceOnly consumers with mistakes:\n  - " + String.join("\n  - ", problems));
    }
    found.sort(Comparator.comparing(FoundConsumer::name));
    return found;
  }

  private static FoundConsumer check(
      ClassInfo handler, AnnotationInstance annotation, IndexView index, List<String> problems) {
    int before = problems.size();
    String where = handler.name().toString();
    String name = text(annotation.value("name"));
    String channel = text(annotation.value("channel"));
    if (name == null || !name.matches("[A-Za-z0-9_-]{1,64}")) {
      problems.add(
          where
              + ": @OnceOnlyConsumer name '"
              + (name == null ? "" : name)
              + "' must be 1 to 64 letters, digits, '-' or '_'");
    }
    if (channel == null || channel.isBlank()) {
      problems.add(
          where
              + ": @OnceOnlyConsumer names no channel: set channel to the SmallRye incoming"
              + " channel it consumes (mp.messaging.incoming.<channel>.*)");
    }
    if (Modifier.isAbstract(handler.flags()) || Modifier.isInterface(handler.flags())) {
      problems.add(where + ": a @OnceOnlyConsumer must be a concrete class");
    }
    Type event = eventType(handler, index, where, problems);
    AnnotationValue decoderValue = annotation.value("decoder");
    DotName decoder =
        decoderValue == null || decoderValue.asClass().name().equals(DECODER)
            ? null
            : decoderValue.asClass().name();
    if (event != null && decoder == null) {
      checkDecodable(event.name(), index, where, problems);
    }
    if (problems.size() > before) {
      return null;
    }
    AnnotationValue claim = annotation.value("claim");
    return new FoundConsumer(
        name, channel, claim == null || claim.asBoolean(), handler.name(), event.name(), decoder);
  }

  /**
   * The {@code E} of {@code IdempotentHandler<E>}: from the interfaces the class or one of its
   * indexed superclasses implements (the platform's own types are not in the application's index).
   */
  private static Type eventType(
      ClassInfo handler, IndexView index, String where, List<String> problems) {
    for (ClassInfo c = handler; c != null; ) {
      for (Type implemented : c.interfaceTypes()) {
        if (!implemented.name().equals(HANDLER)) {
          continue;
        }
        if (implemented.kind() != Type.Kind.PARAMETERIZED_TYPE) {
          problems.add(
              where
                  + ": implements IdempotentHandler without an event type; name the event class,"
                  + " e.g. IdempotentHandler<OrderPlaced>");
          return null;
        }
        Type event = implemented.asParameterizedType().arguments().get(0);
        if (event.kind() != Type.Kind.CLASS && event.kind() != Type.Kind.PARAMETERIZED_TYPE) {
          problems.add(
              where
                  + ": implements IdempotentHandler without a concrete event type ("
                  + event
                  + "); name the event class, e.g. IdempotentHandler<OrderPlaced>");
          return null;
        }
        return event;
      }
      DotName parent = c.superName();
      c = parent == null || parent.equals(OBJECT) ? null : index.getClassByName(parent);
    }
    problems.add(where + ": a @OnceOnlyConsumer must implement IdempotentHandler<E>");
    return null;
  }

  /** Whether the default decoder (Jackson into the type) can read the event type. */
  private static void checkDecodable(
      DotName type, IndexView index, String where, List<String> problems) {
    ClassInfo event = index.getClassByName(type);
    if (event == null) {
      problems.add(
          where
              + ": its event type "
              + type
              + " is not in the application's index (add a Jandex index or beans.xml to its jar)"
              + " or give the consumer a decoder");
      return;
    }
    if (!implementsDated(event, index)) {
      problems.add(
          where
              + ": its event type "
              + type
              + " has no date: implement dev.onceonly.api.Dated (occurredAt(), written by the"
              + " producer), or give the consumer a decoder that says when each event happened");
    }
    boolean abstractType =
        Modifier.isAbstract(event.flags()) || Modifier.isInterface(event.flags());
    if (abstractType && event.declaredAnnotation(JSON_TYPE_INFO) == null) {
      problems.add(
          where
              + ": its event type "
              + type
              + " is abstract and cannot be deserialised: use a concrete class or record, annotate"
              + " it @JsonTypeInfo with its subtypes, or give the consumer a decoder");
      return;
    }
    if (!abstractType && !constructible(event)) {
      problems.add(
          where
              + ": its event type "
              + type
              + " cannot be deserialised: it needs a record's components, a no-argument"
              + " constructor, or a @JsonCreator constructor");
    }
  }

  private static boolean constructible(ClassInfo event) {
    if (RECORD.equals(event.superName())) {
      return true;
    }
    for (MethodInfo method : event.methods()) {
      if (!"<init>".equals(method.name())) {
        continue;
      }
      if (method.parametersCount() == 0 || method.hasAnnotation(JSON_CREATOR)) {
        return true;
      }
    }
    for (MethodInfo method : event.methods()) {
      if (Modifier.isStatic(method.flags()) && method.hasAnnotation(JSON_CREATOR)) {
        return true;
      }
    }
    return false;
  }

  private static boolean implementsDated(ClassInfo type, IndexView index) {
    for (ClassInfo c = type; c != null; ) {
      for (DotName implemented : c.interfaceNames()) {
        if (implemented.equals(DATED) || extendsDated(implemented, index)) {
          return true;
        }
      }
      DotName parent = c.superName();
      c = parent == null || parent.equals(OBJECT) ? null : index.getClassByName(parent);
    }
    return false;
  }

  private static boolean extendsDated(DotName iface, IndexView index) {
    ClassInfo info = index.getClassByName(iface);
    if (info == null) {
      return false;
    }
    for (DotName parent : info.interfaceNames()) {
      if (parent.equals(DATED) || extendsDated(parent, index)) {
        return true;
      }
    }
    return false;
  }

  private static void unique(
      List<FoundConsumer> found,
      java.util.function.Function<FoundConsumer, String> attribute,
      String what,
      List<String> problems) {
    Map<String, FoundConsumer> seen = new HashMap<>();
    for (FoundConsumer c : found) {
      FoundConsumer first = seen.putIfAbsent(attribute.apply(c), c);
      if (first != null) {
        problems.add(
            "two consumers "
                + what
                + " '"
                + attribute.apply(c)
                + "': "
                + first.handler()
                + " and "
                + c.handler()
                + " (each consumer needs a name and a channel of its own)");
      }
    }
  }

  private static String text(AnnotationValue value) {
    return value == null ? null : value.asString();
  }
}
