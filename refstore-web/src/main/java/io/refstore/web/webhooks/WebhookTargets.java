package io.refstore.web.webhooks;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

import io.refstore.web.system.InvalidRequestException;

/**
 * Where a webhook may post: an absolute {@code http} or {@code https} URL without user
 * information, checked when it is set; and, unless {@code refstore.webhooks.allow-local},
 * a host whose every address is public, checked before each attempt (an administrator's
 * URL must not reach the servers around refstore: loopback, private, link-local, unique
 * local, multicast and unspecified addresses are refused).
 */
final class WebhookTargets {

	private WebhookTargets() {
	}

	/**
	 * {@code url} checked as a webhook's URL.
	 * @throws InvalidRequestException naming {@code url} otherwise
	 */
	static URI checked(String url) {
		if (url == null || url.isBlank()) {
			throw new InvalidRequestException("url", url, "a webhook needs a URL");
		}
		if (url.length() > 2048) {
			throw new InvalidRequestException("url", url, "a URL of at most 2048 characters");
		}
		URI uri;
		try {
			uri = new URI(url);
		}
		catch (java.net.URISyntaxException ex) {
			throw new InvalidRequestException("url", url, "not a URL: " + ex.getReason());
		}
		String scheme = (uri.getScheme() == null) ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
		if (!scheme.equals("http") && !scheme.equals("https")) {
			throw new InvalidRequestException("url", url, "a webhook's URL is http or https");
		}
		if (uri.getHost() == null || uri.getHost().isEmpty()) {
			throw new InvalidRequestException("url", url, "the URL names no host");
		}
		if (uri.getRawUserInfo() != null) {
			throw new InvalidRequestException("url", url,
					"the URL must not carry a user or password; the secret signs the deliveries");
		}
		return uri;
	}

	/**
	 * Why an attempt to {@code uri} is refused, or {@code null} when its host's addresses
	 * are all public.
	 */
	static String localRefusal(URI uri) {
		InetAddress[] addresses;
		try {
			addresses = InetAddress.getAllByName(uri.getHost());
		}
		catch (UnknownHostException ex) {
			return "unknown host " + uri.getHost();
		}
		for (InetAddress address : addresses) {
			if (local(address)) {
				return uri.getHost() + " is a local address (" + address.getHostAddress()
						+ "); refstore.webhooks.allow-local lets webhooks reach such addresses";
			}
		}
		return null;
	}

	private static boolean local(InetAddress address) {
		byte[] bytes = address.getAddress();
		boolean uniqueLocal = bytes.length == 16 && (bytes[0] & 0xfe) == 0xfc;
		boolean sharedAddressSpace = bytes.length == 4 && (bytes[0] & 0xff) == 100 && (bytes[1] & 0xc0) == 64;
		return address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
				|| address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocal || sharedAddressSpace;
	}

}
