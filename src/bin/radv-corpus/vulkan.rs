//! The Vulkan calls radv-corpus makes (through `ash`): a device on the named
//! driver (RADV's null device to compile, lavapipe to render), the graphics
//! pipeline of a scene, and the buffers and images of a render.
//!
//! Every function here is `unsafe` inside for the Vulkan calls it makes on
//! objects it created, with create-info structures that outlive each call;
//! the process exits after one compile or one render, which frees them.

use super::PipelineSpec;
use ash::vk;
use std::collections::BTreeSet;

/// The fields of a gcnrun sampler that Vulkan has: filters (mag, min, mip),
/// address modes (u, v, w), compare function, border type, LOD bias, min and
/// max LOD (4.8 fixed point) — the codes of `launch::manifest::SamplerSpec`,
/// passed to the compile child as numbers for immutable samplers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerFields(pub [i64; 11]);

impl SamplerFields {
    pub fn of(s: &gcnrun::launch::manifest::SamplerSpec) -> SamplerFields {
        SamplerFields([
            s.mag.into(),
            s.min.into(),
            s.mip.into(),
            s.address[0].into(),
            s.address[1].into(),
            s.address[2].into(),
            s.compare.into(),
            s.border.into(),
            s.lod_bias.into(),
            s.min_lod.into(),
            s.max_lod.into(),
        ])
    }

    /// Vulkan's sampler for these fields. SQ_TEX_MIP_FILTER none (0) becomes
    /// NEAREST with maxLod 0.25: level 0 only, the min/mag choice still made.
    pub fn info(&self) -> Result<vk::SamplerCreateInfo<'static>, String> {
        let [mag, min, mip, au, av, aw, compare, border, bias, min_lod, max_lod] = self.0;
        let filter = |f: i64| match f {
            0 => Ok(vk::Filter::NEAREST),
            1 => Ok(vk::Filter::LINEAR),
            _ => Err("anisotropic filters are not rendered".to_string()),
        };
        let address = |a: i64| match a {
            0 => Ok(vk::SamplerAddressMode::REPEAT),
            1 => Ok(vk::SamplerAddressMode::MIRRORED_REPEAT),
            2 => Ok(vk::SamplerAddressMode::CLAMP_TO_EDGE),
            3 => Ok(vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE),
            6 => Ok(vk::SamplerAddressMode::CLAMP_TO_BORDER),
            _ => Err(format!("address mode {a} has no Vulkan equivalent")),
        };
        let lod = |v: i64| v as f32 / 256.0;
        Ok(vk::SamplerCreateInfo::default()
            .mag_filter(filter(mag)?)
            .min_filter(filter(min)?)
            .mipmap_mode(if mip == 2 {
                vk::SamplerMipmapMode::LINEAR
            } else {
                vk::SamplerMipmapMode::NEAREST
            })
            .address_mode_u(address(au)?)
            .address_mode_v(address(av)?)
            .address_mode_w(address(aw)?)
            .mip_lod_bias(bias as f32 / 256.0)
            .compare_enable(compare != 0)
            .compare_op(vk::CompareOp::from_raw(compare as i32))
            .min_lod(lod(min_lod))
            .max_lod(if mip == 0 { 0.25 } else { lod(max_lod) })
            .border_color(match border {
                1 => vk::BorderColor::FLOAT_OPAQUE_BLACK,
                2 => vk::BorderColor::FLOAT_OPAQUE_WHITE,
                _ => vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
            }))
    }
}

/// A SPIR-V file as words.
pub fn read_spirv(path: &str) -> Result<Vec<u32>, String> {
    let b = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

pub fn vk_err(what: &str, e: vk::Result) -> String {
    format!("{what}: {e}")
}

/// An instance and a device on the first physical device whose name holds
/// `driver`, with its first queue (family 0: graphics on RADV and lavapipe).
pub struct Context {
    /// Kept alive for the device's sake.
    _entry: ash::Entry,
    pub instance: ash::Instance,
    pub physical: vk::PhysicalDevice,
    pub device: ash::Device,
    pub queue: vk::Queue,
}

/// A built pipeline with its layout and set layouts.
pub struct Pipeline {
    pub pipeline: vk::Pipeline,
    pub layout: vk::PipelineLayout,
    pub set_layouts: Vec<vk::DescriptorSetLayout>,
}

impl Context {
    pub fn new(driver: &str) -> Result<Context, String> {
        // SAFETY: see the module comment.
        unsafe {
            let entry = ash::Entry::load().map_err(|e| format!("libvulkan: {e}"))?;
            let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
            let instance = entry
                .create_instance(
                    &vk::InstanceCreateInfo::default().application_info(&app),
                    None,
                )
                .map_err(|e| vk_err("vkCreateInstance", e))?;
            let physical = instance
                .enumerate_physical_devices()
                .map_err(|e| vk_err("vkEnumeratePhysicalDevices", e))?
                .into_iter()
                .find(|&pd| {
                    let p = instance.get_physical_device_properties(pd);
                    std::ffi::CStr::from_ptr(p.device_name.as_ptr())
                        .to_string_lossy()
                        .contains(driver)
                })
                .ok_or(format!(
                    "no {driver} device (Debian: apt-get install mesa-vulkan-drivers)"
                ))?;
            let prio = [1.0f32];
            let q = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(0)
                .queue_priorities(&prio)];
            let mut f13 = vk::PhysicalDeviceVulkan13Features::default().dynamic_rendering(true);
            let device = instance
                .create_device(
                    physical,
                    &vk::DeviceCreateInfo::default()
                        .queue_create_infos(&q)
                        .push_next(&mut f13),
                    None,
                )
                .map_err(|e| vk_err("vkCreateDevice", e))?;
            let queue = device.get_device_queue(0, 0);
            Ok(Context {
                _entry: entry,
                instance,
                physical,
                device,
                queue,
            })
        }
    }

    /// The scene's pipeline: the pass-through vertex shader, the fragment
    /// shader, one set layout per set up to the highest used, vertex binding
    /// 0 with the position (4 × f32) and one `uvec4` per attribute, triangle
    /// lists without culling, dynamic viewport and scissor, one colour
    /// attachment per target with writes of all four components.
    pub fn pipeline(
        &self,
        vs: &[u32],
        fs: &[u32],
        spec: &PipelineSpec,
    ) -> Result<Pipeline, String> {
        let dev = &self.device;
        // SAFETY: see the module comment.
        unsafe {
            let module = |code: &[u32]| {
                dev.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(code), None)
                    .map_err(|e| vk_err("vkCreateShaderModule", e))
            };
            let (vm, fm) = (module(vs)?, module(fs)?);
            let sets: BTreeSet<u32> = spec.bindings.iter().map(|b| b.0).collect();
            // Immutable samplers, created before the layouts that point at them.
            let mut immutable = Vec::new();
            for (set, binding, fields) in &spec.immutable {
                let s = dev
                    .create_sampler(&fields.info()?, None)
                    .map_err(|e| vk_err("vkCreateSampler", e))?;
                immutable.push((*set, *binding, [s]));
            }
            let mut set_layouts = Vec::new();
            for set in 0..sets.last().map_or(0, |s| s + 1) {
                let b: Vec<_> = spec
                    .bindings
                    .iter()
                    .filter(|b| b.0 == set)
                    .map(|&(_, binding, ty)| {
                        let b = vk::DescriptorSetLayoutBinding::default()
                            .binding(binding)
                            .descriptor_type(vk::DescriptorType::from_raw(ty))
                            .descriptor_count(1)
                            .stage_flags(vk::ShaderStageFlags::FRAGMENT);
                        match immutable.iter().find(|i| i.0 == set && i.1 == binding) {
                            Some(i) => b.immutable_samplers(&i.2),
                            None => b,
                        }
                    })
                    .collect();
                set_layouts.push(
                    dev.create_descriptor_set_layout(
                        &vk::DescriptorSetLayoutCreateInfo::default().bindings(&b),
                        None,
                    )
                    .map_err(|e| vk_err("vkCreateDescriptorSetLayout", e))?,
                );
            }
            let ranges = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::FRAGMENT)
                .size(4 * spec.push.len() as u32)];
            let n = usize::from(!spec.push.is_empty());
            let layout = dev
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default()
                        .set_layouts(&set_layouts)
                        .push_constant_ranges(&ranges[..n]),
                    None,
                )
                .map_err(|e| vk_err("vkCreatePipelineLayout", e))?;
            let stages = [
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::VERTEX)
                    .module(vm)
                    .name(c"main"),
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::FRAGMENT)
                    .module(fm)
                    .name(c"main"),
            ];
            let vb = [vk::VertexInputBindingDescription::default()
                .binding(0)
                .stride(spec.vertex_stride())];
            let va: Vec<_> = (0..=spec.attributes)
                .map(|k| {
                    vk::VertexInputAttributeDescription::default()
                        .location(k)
                        .binding(0)
                        .format(if k == 0 {
                            vk::Format::R32G32B32A32_SFLOAT
                        } else {
                            vk::Format::R32G32B32A32_UINT
                        })
                        .offset(16 * k)
                })
                .collect();
            let vi = vk::PipelineVertexInputStateCreateInfo::default()
                .vertex_binding_descriptions(&vb)
                .vertex_attribute_descriptions(&va);
            let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
                .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
            let vp = vk::PipelineViewportStateCreateInfo::default()
                .viewport_count(1)
                .scissor_count(1);
            let rs = vk::PipelineRasterizationStateCreateInfo::default().line_width(1.0);
            let ms = vk::PipelineMultisampleStateCreateInfo::default()
                .rasterization_samples(vk::SampleCountFlags::TYPE_1);
            let att: Vec<_> = spec
                .targets
                .iter()
                .map(|_| {
                    vk::PipelineColorBlendAttachmentState::default()
                        .color_write_mask(vk::ColorComponentFlags::RGBA)
                })
                .collect();
            let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&att);
            let dyns = [vk::DynamicState::VIEWPORT, vk::DynamicState::SCISSOR];
            let ds = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dyns);
            let fmts: Vec<vk::Format> = spec
                .targets
                .iter()
                .map(|&t| vk::Format::from_raw(t))
                .collect();
            let mut rend =
                vk::PipelineRenderingCreateInfo::default().color_attachment_formats(&fmts);
            let ci = [vk::GraphicsPipelineCreateInfo::default()
                .stages(&stages)
                .vertex_input_state(&vi)
                .input_assembly_state(&ia)
                .viewport_state(&vp)
                .rasterization_state(&rs)
                .multisample_state(&ms)
                .color_blend_state(&cb)
                .dynamic_state(&ds)
                .layout(layout)
                .push_next(&mut rend)];
            let p = dev
                .create_graphics_pipelines(vk::PipelineCache::null(), &ci, None)
                .map_err(|e| vk_err("vkCreateGraphicsPipelines", e.1))?;
            Ok(Pipeline {
                pipeline: p[0],
                layout,
                set_layouts,
            })
        }
    }

    /// A host-visible memory type among `bits`.
    fn host_memory(&self, bits: u32) -> Result<u32, String> {
        // SAFETY: see the module comment.
        let props = unsafe {
            self.instance
                .get_physical_device_memory_properties(self.physical)
        };
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        (0..props.memory_type_count)
            .find(|&i| {
                bits >> i & 1 != 0 && props.memory_types[i as usize].property_flags.contains(want)
            })
            .ok_or_else(|| "no host-visible memory".to_string())
    }

    /// A host-visible buffer of `bytes` holding `data` (zeros past it),
    /// mapped: its pointer.
    pub fn buffer(
        &self,
        bytes: usize,
        usage: vk::BufferUsageFlags,
        data: &[u8],
    ) -> Result<(vk::Buffer, *mut u8), String> {
        let dev = &self.device;
        // SAFETY: see the module comment; the mapping covers `bytes`.
        unsafe {
            let buf = dev
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(bytes.max(4) as u64)
                        .usage(usage),
                    None,
                )
                .map_err(|e| vk_err("vkCreateBuffer", e))?;
            let req = dev.get_buffer_memory_requirements(buf);
            let mem = dev
                .allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(self.host_memory(req.memory_type_bits)?),
                    None,
                )
                .map_err(|e| vk_err("vkAllocateMemory", e))?;
            dev.bind_buffer_memory(buf, mem, 0)
                .map_err(|e| vk_err("vkBindBufferMemory", e))?;
            let ptr = dev
                .map_memory(mem, 0, req.size, vk::MemoryMapFlags::empty())
                .map_err(|e| vk_err("vkMapMemory", e))? as *mut u8;
            std::ptr::write_bytes(ptr, 0, req.size as usize);
            std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, data.len().min(bytes));
            Ok((buf, ptr))
        }
    }

    /// A 2D image with `levels` mip levels, optimal tiling, in device memory
    /// (lavapipe's is host memory), and a view of all its levels.
    pub fn image(
        &self,
        format: vk::Format,
        (width, height, levels): (u32, u32, u32),
        usage: vk::ImageUsageFlags,
    ) -> Result<(vk::Image, vk::ImageView), String> {
        let dev = &self.device;
        // SAFETY: see the module comment.
        unsafe {
            let img = dev
                .create_image(
                    &vk::ImageCreateInfo::default()
                        .image_type(vk::ImageType::TYPE_2D)
                        .format(format)
                        .extent(vk::Extent3D {
                            width,
                            height,
                            depth: 1,
                        })
                        .mip_levels(levels)
                        .array_layers(1)
                        .samples(vk::SampleCountFlags::TYPE_1)
                        .tiling(vk::ImageTiling::OPTIMAL)
                        .usage(usage)
                        .initial_layout(vk::ImageLayout::UNDEFINED),
                    None,
                )
                .map_err(|e| vk_err("vkCreateImage", e))?;
            let req = dev.get_image_memory_requirements(img);
            let props = self
                .instance
                .get_physical_device_memory_properties(self.physical);
            let ty = (0..props.memory_type_count)
                .find(|&i| req.memory_type_bits >> i & 1 != 0)
                .ok_or("no memory type for an image")?;
            let mem = dev
                .allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(ty),
                    None,
                )
                .map_err(|e| vk_err("vkAllocateMemory", e))?;
            dev.bind_image_memory(img, mem, 0)
                .map_err(|e| vk_err("vkBindImageMemory", e))?;
            let view = dev
                .create_image_view(
                    &vk::ImageViewCreateInfo::default()
                        .image(img)
                        .view_type(vk::ImageViewType::TYPE_2D)
                        .format(format)
                        .subresource_range(all_levels(levels)),
                    None,
                )
                .map_err(|e| vk_err("vkCreateImageView", e))?;
            Ok((img, view))
        }
    }
}

/// Every level of a colour image's one layer.
pub fn all_levels(levels: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange::default()
        .aspect_mask(vk::ImageAspectFlags::COLOR)
        .base_mip_level(0)
        .level_count(levels)
        .base_array_layer(0)
        .layer_count(1)
}

impl PipelineSpec {
    /// Bytes per vertex: the position and a `uvec4` per attribute.
    pub fn vertex_stride(&self) -> u32 {
        16 * (1 + self.attributes)
    }
}
