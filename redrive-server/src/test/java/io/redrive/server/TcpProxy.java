package io.redrive.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder between a test's store and its database, to simulate an outage: {@link #cut()}
 * drops every open connection and refuses new ones (as a stopped database does), {@link #restore()}
 * accepts again on the same port. {@link #freeze()} simulates a hung database (SIGSTOP, or a
 * network that drops packets): connections stay open and new ones are accepted, but nothing is
 * forwarded until {@link #thaw()}, which delivers what was held.
 */
final class TcpProxy implements AutoCloseable {
  private final String targetHost;
  private final int targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket listener;
  private volatile int port;
  private final Object gate = new Object();
  private boolean frozen;

  TcpProxy(String targetHost, int targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    listen(0);
  }

  int port() {
    return port;
  }

  /** Closes every forwarded connection and the listener: new connections are refused. */
  synchronized void cut() {
    closeQuietly(listener);
    for (Socket s : open) {
      closeQuietly(s);
    }
    open.clear();
  }

  /** Listens again on the same port. */
  synchronized void restore() {
    listen(port);
  }

  /** Holds every byte in either direction, on open and new connections alike. */
  void freeze() {
    synchronized (gate) {
      frozen = true;
    }
  }

  /** Forwards again, starting with what was held. */
  void thaw() {
    synchronized (gate) {
      frozen = false;
      gate.notifyAll();
    }
  }

  @Override
  public void close() {
    cut();
    thaw();
  }

  private void awaitThaw() throws InterruptedException {
    synchronized (gate) {
      while (frozen) {
        gate.wait();
      }
    }
  }

  private void listen(int onPort) {
    try {
      ServerSocket s = new ServerSocket();
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort));
      listener = s;
      port = s.getLocalPort();
      Thread t = new Thread(() -> accept(s), "tcp-proxy-accept");
      t.setDaemon(true);
      t.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void accept(ServerSocket s) {
    while (!s.isClosed()) {
      Socket client;
      try {
        client = s.accept();
      } catch (IOException e) {
        return;
      }
      Socket server;
      try {
        server = new Socket(targetHost, targetPort);
      } catch (IOException e) {
        closeQuietly(client);
        continue;
      }
      open.add(client);
      open.add(server);
      if (s.isClosed()) {
        closeQuietly(client);
        closeQuietly(server);
        return;
      }
      pump(client, server);
      pump(server, client);
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                  awaitThaw();
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side closed: close both below
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
              }
            },
            "tcp-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception ignored) {
      // closing for the test's outage: nothing to do
    }
  }
}
