package dev.onceonly.kafkabroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BrokerOptionsTest {

  @Test
  void aPortAndADirectoryMakeASingleNodeKraftBrokerForTests() {
    BrokerOptions options = BrokerOptions.parse(List.of("--port=19092", "--data-dir=/tmp/k"));
    Properties p = options.brokerProperties();

    assertThat(options.controllerPort()).isEqualTo(19093);
    assertThat(options.bootstrapServers()).isEqualTo("127.0.0.1:19092");
    assertThat(p.getProperty("process.roles")).isEqualTo("broker,controller");
    assertThat(p.getProperty("controller.quorum.voters")).isEqualTo("1@127.0.0.1:19093");
    assertThat(p.getProperty("listeners"))
        .isEqualTo("PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093");
    assertThat(p.getProperty("log.dirs")).isEqualTo(Path.of("/tmp/k/kraft").toString());
    assertThat(p.getProperty("auto.create.topics.enable")).isEqualTo("true");
    assertThat(p.getProperty("offsets.topic.replication.factor")).isEqualTo("1");
    assertThat(p.getProperty("transaction.state.log.replication.factor")).isEqualTo("1");
    assertThat(p.getProperty("transaction.state.log.min.isr")).isEqualTo("1");
    assertThat(p.getProperty("log.segment.bytes")).isEqualTo("1048576");
  }

  @Test
  void optionsAndSetPropertiesWinOverTheDefaults() {
    BrokerOptions options =
        BrokerOptions.parse(
            List.of(
                "--port=19092",
                "--controller-port=19200",
                "--data-dir=/tmp/k",
                "--auto-create-topics=false",
                "--partitions=4",
                "--set=log.retention.hours=48",
                "--set=num.io.threads=2"));
    Properties p = options.brokerProperties();

    assertThat(p.getProperty("controller.quorum.voters")).isEqualTo("1@127.0.0.1:19200");
    assertThat(p.getProperty("auto.create.topics.enable")).isEqualTo("false");
    assertThat(p.getProperty("num.partitions")).isEqualTo("4");
    assertThat(p.getProperty("log.retention.hours")).isEqualTo("48");
    assertThat(p.getProperty("num.io.threads")).isEqualTo("2");
  }

  @Test
  void aWrongCommandLineIsAnErrorThatNamesTheOption() {
    assertThatThrownBy(() -> BrokerOptions.parse(List.of("--data-dir=/tmp/k")))
        .hasMessage("--port is required");
    assertThatThrownBy(() -> BrokerOptions.parse(List.of("--port=19092")))
        .hasMessage("--data-dir is required");
    assertThatThrownBy(() -> BrokerOptions.parse(List.of("--port=40000", "--data-dir=/tmp/k")))
        .hasMessage("--port must be in 1024..32767, was 40000");
    assertThatThrownBy(() -> BrokerOptions.parse(List.of("--port=32767", "--data-dir=/tmp/k")))
        .hasMessageContaining("controller-port")
        .hasMessageContaining("32768");
    assertThatThrownBy(
            () ->
                BrokerOptions.parse(List.of("--port=19092", "--data-dir=/tmp/k", "--zookeeper=x")))
        .hasMessage("unknown option --zookeeper");
    assertThatThrownBy(
            () ->
                BrokerOptions.parse(
                    List.of("--port=19092", "--data-dir=/tmp/k", "--auto-create-topics=yes")))
        .hasMessage("--auto-create-topics must be true or false, was yes");
    assertThatThrownBy(
            () -> BrokerOptions.parse(List.of("--port=19092", "--data-dir=/tmp/k", "--set=oops")))
        .hasMessage("--set expects KEY=VALUE, got 'oops'");
  }
}
