package io.redrive.server.ui;

import java.time.Instant;

/**
 * What every dashboard page shows around its content: who is signed in, whether sign-out exists
 * (only with keys), the form token, the page's own path (for the navigation), and the time the page
 * was made (every "ago" on it is relative to it).
 *
 * @param user the key's name, or {@code anonymous}
 * @param role the key's role label ({@code admin}, {@code viewer}, …)
 * @param signedIn true when the server has keys (a sign-out button is shown)
 * @param admin true when the role may act (retry, redrive, drop, pause): buttons are shown
 * @param csrf the session's CSRF token, put in every form
 * @param path the page's path
 * @param now when the page was made
 * @param self the page's own address, path and query, which its live refresh asks again
 * @param fragment true for an htmx request (the live refresh): the page's content without the head,
 *     header and footer
 */
public record Chrome(
    String user,
    String role,
    boolean signedIn,
    boolean admin,
    String csrf,
    String path,
    Instant now,
    String self,
    boolean fragment) {}
