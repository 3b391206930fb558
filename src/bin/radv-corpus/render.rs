//! `radv-corpus --render SCENE`: the independent oracle. The scene's own
//! GLSL (the same SPIR-V RADV compiled) is drawn by lavapipe, Mesa's Vulkan
//! driver on the CPU, over the same triangles, attributes, textures and
//! samplers; each render target's texels are written tightly packed to
//! `<stem>.lavapipe.mrt<k>.bin` for `tests/radv_draw.rs` to compare with
//! gcnrun's run of RADV's ISA (docs/draw.md, "The lavapipe oracle").
//!
//! The textures' texels and the samplers' fields come from gcnrun's own
//! reading of the scene's manifest (`<stem>.navi21.toml`; every chip's has
//! the same images and samplers), so both sides sample the same data.

use super::vulkan::{all_levels, vk_err, Context, SamplerFields};
use super::PipelineSpec;
use ash::vk;
use std::path::Path;

/// The Vulkan format of an image gcnrun places (data, number format codes).
pub fn image_format(df: u8, nf: u8) -> Result<vk::Format, String> {
    Ok(match (df, nf) {
        (1, 0) => vk::Format::R8_UNORM,
        (3, 0) => vk::Format::R8G8_UNORM,
        (10, 0) => vk::Format::R8G8B8A8_UNORM,
        (10, 4) => vk::Format::R8G8B8A8_UINT,
        (10, 9) => vk::Format::R8G8B8A8_SRGB,
        (12, 7) => vk::Format::R16G16B16A16_SFLOAT,
        (4, 7) => vk::Format::R32_SFLOAT,
        (14, 7) => vk::Format::R32G32B32A32_SFLOAT,
        (14, 4) => vk::Format::R32G32B32A32_UINT,
        _ => {
            return Err(format!(
                "no Vulkan format for data format {df}, number format {nf}"
            ))
        }
    })
}

/// A pipeline barrier moving `img` between layouts.
fn transition(
    ctx: &Context,
    cb: vk::CommandBuffer,
    img: vk::Image,
    levels: u32,
    (from, to): (vk::ImageLayout, vk::ImageLayout),
) {
    let b = [vk::ImageMemoryBarrier::default()
        .image(img)
        .old_layout(from)
        .new_layout(to)
        .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
        .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .subresource_range(all_levels(levels))];
    // SAFETY: recording into a command buffer this module began.
    unsafe {
        ctx.device.cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &b,
        );
    }
}

/// What a render needs from the scene: its SPIR-V, pipeline spec, vertex
/// data and bindings (set, binding, image name, sampler name).
pub struct Scene<'a> {
    pub vs: &'a [u32],
    pub fs: &'a [u32],
    pub spec: &'a PipelineSpec,
    pub size: (u32, u32),
    pub vertices: Vec<u8>,
    pub vertex_count: u32,
    pub bindings: Vec<(u32, u32, String, String)>,
    /// Bytes per texel of each target.
    pub target_bytes: Vec<u32>,
}

/// Draws the scene on lavapipe; returns each target's texels, rows tightly
/// packed.
pub fn render(scene: &Scene, manifest: &Path) -> Result<Vec<Vec<u8>>, String> {
    let p = gcnrun::launch::run::prepare_manifest(manifest, None, None, None)
        .map_err(|e| e.to_string())?;
    let ctx = Context::new("llvmpipe")?;
    let dev = &ctx.device;
    let pipe = ctx.pipeline(scene.vs, scene.fs, scene.spec)?;
    let (width, height) = scene.size;
    // SAFETY: Vulkan calls on objects created here, recorded and submitted
    // once and waited for before the mapped memory is read.
    unsafe {
        let pool = dev
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(0),
                None,
            )
            .map_err(|e| vk_err("vkCreateCommandPool", e))?;
        let cb = dev
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(pool)
                    .command_buffer_count(1),
            )
            .map_err(|e| vk_err("vkAllocateCommandBuffers", e))?[0];
        dev.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
            .map_err(|e| vk_err("vkBeginCommandBuffer", e))?;
        // Textures and samplers, bound as the scene says.
        let mut pool_sizes = Vec::new();
        let mut writes = Vec::new();
        for (set, binding, image, sampler) in &scene.bindings {
            let i = p
                .launch
                .images
                .iter()
                .position(|im| &im.name == image)
                .ok_or(format!("no image `{image}`"))?;
            let placed = &p.images[i];
            let d = &placed.desc;
            let surf = gcnrun::texture::resource::surface_of(d).map_err(|e| e.to_string())?;
            let fmt = image_format(d.data_format, d.num_format)?;
            let bpe = surf.bpe;
            let levels = surf.levels;
            let (img, view) = ctx.image(
                fmt,
                (d.width, d.height, levels),
                vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
            )?;
            // Level by level, tightly packed, from gcnrun's memory.
            let mut data = Vec::new();
            let mut copies = Vec::new();
            for m in 0..levels {
                let (w, h, _) = surf.level_dims(m);
                copies.push(
                    vk::BufferImageCopy::default()
                        .buffer_offset(data.len() as u64)
                        .image_subresource(
                            vk::ImageSubresourceLayers::default()
                                .aspect_mask(vk::ImageAspectFlags::COLOR)
                                .mip_level(m)
                                .layer_count(1),
                        )
                        .image_extent(vk::Extent3D {
                            width: w,
                            height: h,
                            depth: 1,
                        }),
                );
                for y in 0..h {
                    for x in 0..w {
                        let o = surf.texel_offset(m, 0, x, y, 0).ok_or("texel outside")?;
                        let t = p
                            .memory
                            .read(d.base_address + o, bpe)
                            .ok_or("texel outside memory")?;
                        data.extend_from_slice(t);
                    }
                }
            }
            let (staging, _) = ctx.buffer(data.len(), vk::BufferUsageFlags::TRANSFER_SRC, &data)?;
            transition(
                &ctx,
                cb,
                img,
                levels,
                (
                    vk::ImageLayout::UNDEFINED,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                ),
            );
            dev.cmd_copy_buffer_to_image(
                cb,
                staging,
                img,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &copies,
            );
            transition(
                &ctx,
                cb,
                img,
                levels,
                (
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                ),
            );
            let s = p
                .launch
                .samplers
                .iter()
                .find(|s| &s.name == sampler)
                .ok_or(format!("no sampler `{sampler}`"))?;
            let smp = dev
                .create_sampler(&SamplerFields::of(s).info()?, None)
                .map_err(|e| vk_err("vkCreateSampler", e))?;
            pool_sizes.push(
                vk::DescriptorPoolSize::default()
                    .ty(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .descriptor_count(1),
            );
            writes.push((*set, *binding, view, smp));
        }
        let mut sets = Vec::new();
        if !pipe.set_layouts.is_empty() {
            pool_sizes.push(
                vk::DescriptorPoolSize::default()
                    .ty(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .descriptor_count(1),
            );
            let dpool = dev
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(pipe.set_layouts.len() as u32)
                        .pool_sizes(&pool_sizes),
                    None,
                )
                .map_err(|e| vk_err("vkCreateDescriptorPool", e))?;
            sets = dev
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(dpool)
                        .set_layouts(&pipe.set_layouts),
                )
                .map_err(|e| vk_err("vkAllocateDescriptorSets", e))?;
            for (set, binding, view, smp) in &writes {
                let info = [vk::DescriptorImageInfo::default()
                    .image_view(*view)
                    .sampler(*smp)
                    .image_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)];
                let w = vk::WriteDescriptorSet::default()
                    .dst_set(sets[*set as usize])
                    .dst_binding(*binding)
                    .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .image_info(&info);
                dev.update_descriptor_sets(&[w], &[]);
            }
        }
        // Render targets, cleared to zero as gcnrun's start.
        let mut targets = Vec::new();
        let mut attachments = Vec::new();
        for &t in &scene.spec.targets {
            let (img, view) = ctx.image(
                vk::Format::from_raw(t),
                (width, height, 1),
                vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            )?;
            transition(
                &ctx,
                cb,
                img,
                1,
                (
                    vk::ImageLayout::UNDEFINED,
                    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                ),
            );
            attachments.push(
                vk::RenderingAttachmentInfo::default()
                    .image_view(view)
                    .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .load_op(vk::AttachmentLoadOp::CLEAR)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .clear_value(vk::ClearValue::default()),
            );
            targets.push(img);
        }
        let (vbuf, _) = ctx.buffer(
            scene.vertices.len(),
            vk::BufferUsageFlags::VERTEX_BUFFER,
            &scene.vertices,
        )?;
        let area = vk::Rect2D::default().extent(vk::Extent2D { width, height });
        dev.cmd_begin_rendering(
            cb,
            &vk::RenderingInfo::default()
                .render_area(area)
                .layer_count(1)
                .color_attachments(&attachments),
        );
        dev.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipe.pipeline);
        if !sets.is_empty() {
            dev.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::GRAPHICS,
                pipe.layout,
                0,
                &sets,
                &[],
            );
        }
        dev.cmd_bind_vertex_buffers(cb, 0, &[vbuf], &[0]);
        if !scene.spec.push.is_empty() {
            let bytes: Vec<u8> = scene
                .spec
                .push
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            dev.cmd_push_constants(cb, pipe.layout, vk::ShaderStageFlags::FRAGMENT, 0, &bytes);
        }
        dev.cmd_set_viewport(
            cb,
            0,
            &[vk::Viewport {
                x: 0.0,
                y: 0.0,
                width: width as f32,
                height: height as f32,
                min_depth: 0.0,
                max_depth: 1.0,
            }],
        );
        dev.cmd_set_scissor(cb, 0, &[area]);
        dev.cmd_draw(cb, scene.vertex_count, 1, 0, 0);
        dev.cmd_end_rendering(cb);
        let mut readback = Vec::new();
        for (img, &bpt) in targets.iter().zip(&scene.target_bytes) {
            let bytes = (width * height * bpt) as usize;
            let (buf, ptr) = ctx.buffer(bytes, vk::BufferUsageFlags::TRANSFER_DST, &[])?;
            transition(
                &ctx,
                cb,
                *img,
                1,
                (
                    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                ),
            );
            let copy = vk::BufferImageCopy::default()
                .image_subresource(
                    vk::ImageSubresourceLayers::default()
                        .aspect_mask(vk::ImageAspectFlags::COLOR)
                        .layer_count(1),
                )
                .image_extent(vk::Extent3D {
                    width,
                    height,
                    depth: 1,
                });
            dev.cmd_copy_image_to_buffer(
                cb,
                *img,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                buf,
                &[copy],
            );
            readback.push((ptr, bytes));
        }
        dev.end_command_buffer(cb)
            .map_err(|e| vk_err("vkEndCommandBuffer", e))?;
        let cbs = [cb];
        dev.queue_submit(
            ctx.queue,
            &[vk::SubmitInfo::default().command_buffers(&cbs)],
            vk::Fence::null(),
        )
        .map_err(|e| vk_err("vkQueueSubmit", e))?;
        dev.queue_wait_idle(ctx.queue)
            .map_err(|e| vk_err("vkQueueWaitIdle", e))?;
        Ok(readback
            .into_iter()
            .map(|(ptr, n)| std::slice::from_raw_parts(ptr, n).to_vec())
            .collect())
    }
}
