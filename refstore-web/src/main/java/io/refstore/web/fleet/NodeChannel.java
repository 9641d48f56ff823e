package io.refstore.web.fleet;

import jakarta.servlet.http.HttpServletRequest;

/**
 * What another node of the fleet may ask of this one with a node credential
 * ({@link NodeSignature}), once its signature holds: the fleet knows which nodes are up,
 * which routes it forwards and which node holds which repository. Thread-safe.
 */
interface NodeChannel {

	/** This node's name: the node a credential sent here must be signed for. */
	String node();

	/**
	 * Why node {@code sender} may not send {@code request} here (it is no node of the
	 * fleet that is up, or the route is not one the fleet forwards to this node), as a
	 * sentence shown to the caller.
	 * @param request the request, its form fields readable
	 * @return the refusal, or {@code null} if the node may send it
	 */
	String refusal(String sender, HttpServletRequest request);

}
