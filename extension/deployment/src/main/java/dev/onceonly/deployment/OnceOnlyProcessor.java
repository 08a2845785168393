package dev.onceonly.deployment;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.OnceOnlyRecorder;
import dev.onceonly.internal.claim.ClaimPartitionRepository;
import dev.onceonly.internal.claim.ClaimPartitions;
import dev.onceonly.internal.claim.ClaimRepository;
import dev.onceonly.internal.claim.ConflictRepository;
import dev.onceonly.internal.claim.RejectionRepository;
import dev.onceonly.internal.config.ChannelDefaults;
import dev.onceonly.internal.config.ChannelDefaultsConfig;
import dev.onceonly.internal.config.ChannelDefaultsSource;
import dev.onceonly.internal.config.OnceOnlyBuildConfig;
import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.db.Jdbc;
import dev.onceonly.internal.health.BrokerStartupCheck;
import dev.onceonly.internal.health.ClaimSettingsCheck;
import dev.onceonly.internal.health.QueueTypeCheck;
import dev.onceonly.internal.intake.Intake;
import dev.onceonly.internal.intake.RabbitAcks;
import dev.onceonly.internal.messaging.BrokerTlsCustomizer;
import dev.onceonly.internal.messaging.DeadLetters;
import dev.onceonly.internal.messaging.InvalidMessageLog;
import dev.onceonly.internal.messaging.MessageTracing;
import dev.onceonly.internal.messaging.QueueArguments;
import dev.onceonly.internal.metrics.ConsumerMetrics;
import dev.onceonly.internal.metrics.QueueDepthGauge;
import dev.onceonly.internal.operations.AuditRepository;
import dev.onceonly.internal.operations.AuditResource;
import dev.onceonly.internal.operations.ClaimsResource;
import dev.onceonly.internal.operations.CredentialsStartupCheck;
import dev.onceonly.internal.operations.DeadLetterReplayer;
import dev.onceonly.internal.operations.DeadLetterResource;
import dev.onceonly.internal.outbox.OutboxWriter;
import dev.onceonly.internal.processing.GroupCommit;
import dev.onceonly.internal.processing.IdempotentProcessor;
import dev.onceonly.internal.processing.MessageDecider;
import dev.onceonly.internal.processing.TransactionRetry;
import dev.onceonly.internal.schema.PlatformMigrations;
import dev.onceonly.internal.schema.SchemaGate;
import dev.onceonly.internal.schema.SchemaReadinessCheck;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.BeanContainerBuildItem;
import io.quarkus.arc.deployment.BeanDiscoveryFinishedBuildItem;
import io.quarkus.arc.deployment.GeneratedBeanBuildItem;
import io.quarkus.arc.deployment.GeneratedBeanGizmoAdaptor;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.GeneratedResourceBuildItem;
import io.quarkus.deployment.builditem.IndexDependencyBuildItem;
import io.quarkus.deployment.builditem.InitTaskCompletedBuildItem;
import io.quarkus.deployment.builditem.RunTimeConfigBuilderBuildItem;
import io.quarkus.deployment.builditem.RunTimeConfigurationDefaultBuildItem;
import io.quarkus.deployment.builditem.ServiceStartBuildItem;
import io.quarkus.runtime.util.ClassPathUtils;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.jandex.ClassType;
import org.jboss.jandex.DotName;

/**
 * The build steps of the OnceOnly extension: the platform's beans, the consumers found in the
 * application ({@link ConsumerDiscovery}), a channel listener generated for each ({@link
 * ListenerGenerator}), what exactness needs on their channels, the catalog the runtime works from,
 * the migration files, and the operator API when enabled.
 */
class OnceOnlyProcessor {

  static final String FEATURE = "onceonly";

  /** Present when the application has io.quarkus:quarkus-messaging-kafka (optional here). */
  static final String KAFKA_CONNECTOR = "io.smallrye.reactive.messaging.kafka.KafkaConnector";

  @BuildStep
  FeatureBuildItem feature() {
    return new FeatureBuildItem(FEATURE);
  }

  @BuildStep
  AdditionalBeanBuildItem platformBeans() {
    return AdditionalBeanBuildItem.builder()
        .setUnremovable()
        .addBeanClasses(
            Intake.class,
            RabbitAcks.class,
            GroupCommit.class,
            IdempotentProcessor.class,
            MessageDecider.class,
            TransactionRetry.class,
            Jdbc.class,
            ClaimRepository.class,
            ConflictRepository.class,
            RejectionRepository.class,
            ClaimPartitionRepository.class,
            ClaimPartitions.class,
            OutboxWriter.class,
            PlatformMigrations.class,
            SchemaGate.class,
            SchemaReadinessCheck.class,
            BrokerStartupCheck.class,
            QueueTypeCheck.class,
            QueueArguments.class,
            ClaimSettingsCheck.class,
            ConsumerMetrics.class,
            QueueDepthGauge.class,
            DeadLetters.class,
            BrokerTlsCustomizer.class,
            InvalidMessageLog.class,
            MessageTracing.class,
            DeadLetterReplayer.class,
            AuditRepository.class)
        .build();
  }

  /** The consumers of the application, validated: the build fails naming every mistake. */
  @BuildStep
  ConsumersBuildItem consumers(CombinedIndexBuildItem index) {
    return new ConsumersBuildItem(ConsumerDiscovery.discover(index.getIndex()));
  }

  /** Handlers and decoders are looked up by class at run time: they must stay beans. */
  @BuildStep
  UnremovableBeanBuildItem keepHandlers(ConsumersBuildItem consumers) {
    List<String> classes = new ArrayList<>();
    for (FoundConsumer c : consumers.all()) {
      classes.add(c.handler().toString());
      if (c.decoder() != null) {
        classes.add(c.decoder().toString());
      }
    }
    return UnremovableBeanBuildItem.beanClassNames(classes.toArray(String[]::new));
  }

  /** A handler or decoder that is not a bean fails the build, naming it and what to add. */
  @BuildStep
  void handlersAreBeans(
      ConsumersBuildItem consumers,
      BeanDiscoveryFinishedBuildItem beans,
      BuildProducer<ValidationPhaseBuildItem.ValidationErrorBuildItem> errors) {
    List<Throwable> problems = new ArrayList<>();
    for (FoundConsumer c : consumers.all()) {
      if (!isBean(beans, c.handler())) {
        problems.add(
            new IllegalStateException(
                c.handler()
                    + " is a @OnceOnlyConsumer ("
                    + c.name()
                    + ") but not a bean: annotate it @ApplicationScoped or @Singleton"));
      }
      if (c.decoder() != null && !isBean(beans, c.decoder())) {
        problems.add(
            new IllegalStateException(
                c.decoder()
                    + ", the decoder of consumer "
                    + c.name()
                    + ", is not a bean: annotate it @ApplicationScoped or @Singleton"));
      }
    }
    if (!problems.isEmpty()) {
      errors.produce(new ValidationPhaseBuildItem.ValidationErrorBuildItem(problems));
    }
  }

  private static boolean isBean(BeanDiscoveryFinishedBuildItem beans, DotName type) {
    return beans.beanStream().classBeans().stream()
        .map(BeanInfo::getBeanClass)
        .anyMatch(type::equals);
  }

  @BuildStep
  void listeners(ConsumersBuildItem consumers, BuildProducer<GeneratedBeanBuildItem> beans) {
    GeneratedBeanGizmoAdaptor output = new GeneratedBeanGizmoAdaptor(beans);
    for (FoundConsumer c : consumers.all()) {
      ListenerGenerator.generate(c, output);
    }
  }

  /**
   * What exactness needs on each consumer's channel, as defaults the application may override, per
   * connector ({@link ChannelDefaults}): applied when the service starts, from the connector
   * configured then ({@link ChannelDefaultsSource}), so that a consumer moves from RabbitMQ to
   * Kafka by configuration. The build checks the connector it sees and lists the channels.
   */
  @BuildStep
  void channelDefaults(
      ConsumersBuildItem consumers,
      BuildProducer<GeneratedResourceBuildItem> resources,
      BuildProducer<RunTimeConfigBuilderBuildItem> configBuilders,
      BuildProducer<RunTimeConfigurationDefaultBuildItem> defaults) {
    StringBuilder channels = new StringBuilder();
    for (FoundConsumer c : consumers.all()) {
      String prefix = "mp.messaging.incoming." + c.channel() + ".";
      String connector =
          ConfigProvider.getConfig()
              .getOptionalValue(prefix + "connector", String.class)
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "channel "
                              + c.channel()
                              + " of OnceOnly consumer "
                              + c.name()
                              + " ("
                              + c.handler()
                              + ") has no connector: set "
                              + prefix
                              + "connector=smallrye-rabbitmq (or smallrye-kafka)"));
      ChannelDefaults.of(connector, c.name(), c.channel());
      if (ChannelDefaults.KAFKA.equals(connector)
          && !QuarkusClassLoader.isClassPresentAtRuntime(KAFKA_CONNECTOR)) {
        throw new IllegalStateException(
            "channel "
                + c.channel()
                + " of OnceOnly consumer "
                + c.name()
                + " uses Kafka: add the dependency io.quarkus:quarkus-messaging-kafka");
      }
      channels.append(c.channel()).append('=').append(c.name()).append('\n');
      // A lost broker makes the service not ready, never not live: a restart cannot bring a
      // broker back, and the liveness probe would restart every consumer after its timeout.
      defaults.produce(
          new RunTimeConfigurationDefaultBuildItem(
              "quarkus.messaging.health." + c.channel() + ".liveness.enabled", "false"));
    }
    resources.produce(
        new GeneratedResourceBuildItem(
            ChannelDefaultsSource.CHANNELS, channels.toString().getBytes(StandardCharsets.UTF_8)));
    configBuilders.produce(new RunTimeConfigBuilderBuildItem(ChannelDefaultsConfig.class));
    if (!consumers.all().isEmpty()) {
      // The connector reconnects every 10 s for as long as an outage lasts (its own default gives
      // up after 100 attempts, leaving a live service that consumes nothing).
      defaults.produce(
          new RunTimeConfigurationDefaultBuildItem("rabbitmq-reconnect-attempts", "2147483647"));
      defaults.produce(
          new RunTimeConfigurationDefaultBuildItem("rabbitmq-reconnect-interval", "10"));
    }
  }

  @BuildStep
  @Record(ExecutionTime.RUNTIME_INIT)
  SyntheticBeanBuildItem catalog(ConsumersBuildItem consumers, OnceOnlyRecorder recorder) {
    List<OnceOnlyRecorder.Found> found = new ArrayList<>();
    for (FoundConsumer c : consumers.all()) {
      found.add(
          new OnceOnlyRecorder.Found(
              c.name(),
              c.channel(),
              c.claims(),
              c.eventType().toString(),
              c.handler().toString(),
              c.decoder() == null ? null : c.decoder().toString()));
    }
    return SyntheticBeanBuildItem.configure(ConsumerCatalog.class)
        .scope(Singleton.class)
        .unremovable()
        .setRuntimeInit()
        .addInjectionPoint(ClassType.create(DotName.createSimple(OnceOnlyConfig.class)))
        .addInjectionPoint(ClassType.create(DotName.createSimple(ObjectMapper.class)))
        .createWith(recorder.catalog(found))
        .done();
  }

  /** The migration files of the platform's and the outbox's histories, listed once, here. */
  @BuildStep
  @Record(ExecutionTime.STATIC_INIT)
  void migrations(OnceOnlyRecorder recorder) {
    Map<String, List<String>> files = new LinkedHashMap<>();
    for (String location : List.of(PlatformMigrations.PLATFORM, PlatformMigrations.OUTBOX)) {
      files.put(location, files(location));
    }
    recorder.migrations(files);
  }

  static List<String> files(String location) {
    TreeSet<String> found = new TreeSet<>();
    try {
      ClassPathUtils.consumeAsPaths(
          location,
          folder -> {
            try (Stream<Path> entries = Files.list(folder)) {
              entries
                  .map(p -> p.getFileName().toString())
                  .filter(name -> name.endsWith(".sql"))
                  .forEach(name -> found.add(location + "/" + name));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the migrations in " + location, e);
    }
    if (found.isEmpty()) {
      throw new IllegalStateException("no migration files found in " + location);
    }
    return List.copyOf(found);
  }

  /**
   * Migrates while the service initialises, like Quarkus' own Flyway: before the application
   * starts, and also when it only initialises and exits ({@code quarkus.init-and-exit}, the
   * migrations Job on Kubernetes).
   */
  @BuildStep
  @Record(ExecutionTime.RUNTIME_INIT)
  void migrateAtStart(
      OnceOnlyRecorder recorder,
      BeanContainerBuildItem container,
      BuildProducer<ServiceStartBuildItem> started,
      BuildProducer<InitTaskCompletedBuildItem> initialised) {
    recorder.migrate();
    started.produce(new ServiceStartBuildItem(FEATURE));
    initialised.produce(new InitTaskCompletedBuildItem(FEATURE));
  }

  /**
   * The operator REST API, when {@code quarkus.onceonly.api.enabled}, with the HTTP conventions it
   * answers by (shared-web: problem+json errors, strict parameters, the body limit, the cross-site
   * guard). Without it the platform adds nothing to the service's HTTP behaviour.
   */
  @BuildStep
  void operatorApi(
      OnceOnlyBuildConfig config,
      BuildProducer<AdditionalIndexedClassesBuildItem> indexed,
      BuildProducer<IndexDependencyBuildItem> dependencies,
      BuildProducer<AdditionalBeanBuildItem> beans) {
    if (!config.api().enabled()) {
      return;
    }
    dependencies.produce(new IndexDependencyBuildItem("dev.onceonly", "shared-web"));
    indexed.produce(
        new AdditionalIndexedClassesBuildItem(
            ClaimsResource.class.getName(),
            DeadLetterResource.class.getName(),
            AuditResource.class.getName()));
    // As beans too: the security checks of their @RolesAllowed are built from the bean archive.
    beans.produce(
        AdditionalBeanBuildItem.builder()
            .setUnremovable()
            .addBeanClasses(
                ClaimsResource.class,
                DeadLetterResource.class,
                AuditResource.class,
                CredentialsStartupCheck.class)
            .build());
  }
}
