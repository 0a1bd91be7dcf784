package io.redrive.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine a run was measured on.
 *
 * @param cpu CPU model from /proc/cpuinfo
 * @param cores processors available to the JVM
 * @param memory total memory from /proc/meminfo
 * @param os operating system name, version and architecture
 * @param jdk java.version and java.vendor (and the VM name)
 * @param databases per store: version and the settings not at their default
 */
public record Machine(
    String cpu,
    int cores,
    String memory,
    String os,
    String jdk,
    Map<String, DatabaseInfo> databases) {

  /**
   * One database's identity.
   *
   * @param version as the database reports it
   * @param settings non-default (and speed-deciding) settings
   */
  public record DatabaseInfo(String version, Map<String, String> settings) {}

  static Machine describe(Map<String, DatabaseInfo> databases) {
    return new Machine(
        procField("/proc/cpuinfo", "model name"),
        Runtime.getRuntime().availableProcessors(),
        totalMemory(),
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"),
        System.getProperty("java.version")
            + " ("
            + System.getProperty("java.vendor")
            + ", "
            + System.getProperty("java.vm.name")
            + ")",
        new LinkedHashMap<>(databases));
  }

  private static String totalMemory() {
    String kb = procField("/proc/meminfo", "MemTotal");
    try {
      long value = Long.parseLong(kb.replaceAll("[^0-9]", ""));
      return String.format("%.1f GiB", value / 1024.0 / 1024.0);
    } catch (NumberFormatException e) {
      return kb;
    }
  }

  private static String procField(String file, String field) {
    try {
      List<String> lines = Files.readAllLines(Path.of(file));
      for (String line : lines) {
        if (line.startsWith(field)) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: say so below
    }
    return "unknown";
  }
}
