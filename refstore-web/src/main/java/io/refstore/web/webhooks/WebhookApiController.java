package io.refstore.web.webhooks;

import java.net.URI;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Webhooks and their delivery log (ADMIN; docs/operators.md, "Webhooks").
 */
@RestController
@Tag(name = "webhooks")
class WebhookApiController {

	private final WebhookService webhooks;

	WebhookApiController(WebhookService webhooks) {
		this.webhooks = webhooks;
	}

	@GetMapping("/api/webhooks")
	@Operation(summary = "Every webhook, by name (ADMIN)")
	List<Webhook> list() {
		return this.webhooks.list();
	}

	@PostMapping("/api/webhooks")
	@Operation(summary = "Create a webhook; without a secret refstore makes one, shown only in this answer (ADMIN)")
	ResponseEntity<WebhookService.Created> create(@RequestBody WebhookRequest request) {
		WebhookService.Created created = this.webhooks.create(request);
		return ResponseEntity.created(URI.create("/api/webhooks/" + created.webhook().id())).body(created);
	}

	@GetMapping("/api/webhooks/{id}")
	@Operation(summary = "One webhook (ADMIN)")
	Webhook get(@PathVariable long id) {
		return this.webhooks.find(id);
	}

	@PutMapping("/api/webhooks/{id}")
	@Operation(summary = "Change a webhook; an empty secret keeps its own (ADMIN)")
	Webhook update(@PathVariable long id, @RequestBody WebhookRequest request) {
		return this.webhooks.update(id, request);
	}

	@DeleteMapping("/api/webhooks/{id}")
	@Operation(summary = "Delete a webhook and its deliveries (ADMIN)")
	ResponseEntity<Void> delete(@PathVariable long id) {
		this.webhooks.delete(id);
		return ResponseEntity.noContent().build();
	}

	@PostMapping("/api/webhooks/{id}/deliveries:test")
	@Operation(summary = "Send the webhook a ping delivery now (ADMIN)")
	ResponseEntity<Delivery> test(@PathVariable long id) {
		Delivery delivery = this.webhooks.test(id);
		return ResponseEntity.accepted()
			.location(URI.create("/api/webhooks/" + id + "/deliveries/" + delivery.id()))
			.body(delivery);
	}

	@GetMapping("/api/webhooks/{id}/deliveries")
	@Operation(summary = "The webhook's deliveries, newest first, with each one's last answer (ADMIN)")
	List<Delivery> deliveries(@PathVariable long id, @RequestParam(required = false) Long before,
			@RequestParam(defaultValue = "50") int limit) {
		return this.webhooks.deliveries(id, before, limit);
	}

	@GetMapping("/api/webhooks/{id}/deliveries/{delivery}")
	@Operation(summary = "One delivery (ADMIN)")
	Delivery delivery(@PathVariable long id, @PathVariable long delivery) {
		return this.webhooks.delivery(id, delivery);
	}

	@PostMapping("/api/webhooks/{id}/deliveries/{delivery}:redeliver")
	@Operation(summary = "Send a delivery's payload again, as a new delivery (ADMIN)")
	ResponseEntity<Delivery> redeliver(@PathVariable long id, @PathVariable long delivery) {
		Delivery again = this.webhooks.redeliver(id, delivery);
		return ResponseEntity.accepted()
			.location(URI.create("/api/webhooks/" + id + "/deliveries/" + again.id()))
			.body(again);
	}

}
